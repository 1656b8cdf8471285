import type { CoercionPolicy, JsonObject, RoutingScore, StageResult, TestCase } from '../../domain/index.js';
import { scoreAgainstReference } from '../../metrics/index.js';
import { describeEntry, matchArguments } from '../match/index.js';

/** A routing reason passes at this reference-heuristic score: reasons are paraphrased more freely than answers. */
export const REASON_PASS_THRESHOLD = 0.5;

/** What a multi-agent endpoint reported about one question. */
export interface ReportedRouting {
  agent?: string | undefined;
  routing_reason?: string | undefined;
  entities?: JsonObject | undefined;
}

/** The agent an endpoint routed to against the expected one (trimmed, ignoring case). */
export function agentMatches(expected: string, actual: string | undefined): boolean {
  return actual !== undefined && actual.trim().toLowerCase() === expected.trim().toLowerCase();
}

/** A routing reason against the expected one with the reference heuristic; undefined when the expected one has no words. */
export function scoreReason(question: string, expected: string, actual: string): { score: number; reasoning: string } | undefined {
  const scored = scoreAgainstReference({ question, expected_answer: expected, expected_facts: [], actual_answer: actual });
  return scored ? { score: scored.score, reasoning: scored.reasoning } : undefined;
}

/**
 * Orchestrator mode: scores what the agent reported against what the case expects, only the parts the case expects
 * (`expected_agent`, `expected_routing_reason`, `expected_entities`); undefined when it expects none. Entities are
 * matched like call arguments (matchers, the coercion policy; entities the case does not name are not extra).
 */
export function scoreRouting(testCase: TestCase, reported: ReportedRouting, policy: CoercionPolicy): RoutingScore | undefined {
  const parts: number[] = [];
  const problems: string[] = [];
  const routing: Omit<RoutingScore, 'passed' | 'score' | 'message'> = {};
  if (testCase.expected_agent) {
    const passed = agentMatches(testCase.expected_agent, reported.agent);
    routing.agent = { expected: testCase.expected_agent, actual: reported.agent ?? null, passed };
    parts.push(passed ? 1 : 0);
    if (!passed)
      problems.push(
        reported.agent === undefined
          ? `no agent reported; expected "${testCase.expected_agent}"`
          : `routed to "${reported.agent}" instead of "${testCase.expected_agent}"`,
      );
  }
  if (testCase.expected_routing_reason) {
    const scored = reported.routing_reason
      ? scoreReason(testCase.nl_query, testCase.expected_routing_reason, reported.routing_reason)
      : undefined;
    const score = scored ? scored.score : reported.routing_reason ? 1 : 0;
    const passed = score >= REASON_PASS_THRESHOLD;
    routing.reason = { expected: testCase.expected_routing_reason, actual: reported.routing_reason ?? null, score, passed };
    parts.push(score);
    if (!passed)
      problems.push(
        reported.routing_reason ? `routing reason scored ${score.toFixed(2)} against the expected one` : 'no routing reason reported',
      );
  }
  if (testCase.expected_entities) {
    const match = matchArguments(testCase.expected_entities, reported.entities ?? {}, { policy, path: '', allowExtraKeys: true });
    const shown = match.entries
      .filter((e) => e.kind !== 'coerced')
      .slice(0, 3)
      .map(describeEntry);
    routing.entities = { score: match.score, passed: match.passed, problems: shown };
    parts.push(match.score);
    if (!match.passed) problems.push(reported.entities ? `entities: ${shown.join(', ')}` : 'no entities reported');
  }
  if (parts.length === 0) return undefined;
  const score = parts.reduce((a, b) => a + b, 0) / parts.length;
  const passed = (routing.agent?.passed ?? true) && (routing.reason?.passed ?? true) && (routing.entities?.passed ?? true);
  return { passed, score, ...routing, message: problems.join('; ') };
}

/**
 * The logic stage with the routing folded in: it passes only when the calls and the routing pass. A passing routing
 * leaves the calls' score; a failing one makes the score the mean of both (below 1, so passed ⇔ score = 1 still
 * holds). The routing result is kept in the details as `routing`. When the calls were right, the routing problem
 * gives the error code: `wrong_agent`, else `entity_mismatch`.
 */
export function withRouting(logic: StageResult, routing: RoutingScore): StageResult {
  const details = { ...(logic.details as Record<string, unknown> | undefined), routing };
  if (routing.passed) return { ...logic, details };
  const result: StageResult = { ...logic, status: 'failed', passed: false, score: ((logic.score ?? 0) + routing.score) / 2, details };
  if (logic.passed) {
    result.error_code = routing.agent && !routing.agent.passed ? 'wrong_agent' : 'entity_mismatch';
    result.message = routing.message;
  } else {
    result.message = `${logic.message ?? ''}; ${routing.message}`;
  }
  return result;
}
