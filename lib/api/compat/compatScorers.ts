import type { Scorecard, StageName, TestCase } from '../../domain/index.js';
import { agentMatches, REASON_PASS_THRESHOLD, scoreReason } from '../../evaluation/index.js';
import type { ScorerResult } from './compatSchemas.js';

export const COMPAT_SCORER_NAMES = ['syntax', 'logic', 'execution', 'semantics', 'agent_routing', 'routing_reason'] as const;
export type CompatScorerName = (typeof COMPAT_SCORER_NAMES)[number];

/** A reason passes at this reference-heuristic score (the same rule as orchestrator runs, lib/evaluation/logic/routing.ts). */
export { REASON_PASS_THRESHOLD };

export interface CompatScorer {
  name: CompatScorerName;
  weight: number;
  /** where the score comes from on the platform */
  source: string;
  description: string;
}

/**
 * The scorers of an evaluation job and their weights in its overall score. The four stages are the run's own
 * stage results; agent routing and reason compare what the endpoint reported (kept on each scorecard) with
 * the question's expected outcome (kept on its test case).
 */
export const COMPAT_SCORERS = [
  {
    name: 'syntax',
    weight: 0.05,
    source: 'stage 1, syntax gate',
    description: 'the endpoint answered with a readable JSON body (a target error, timeout or unreadable body fails)',
  },
  {
    name: 'logic',
    weight: 0.05,
    source: 'stage 2, tool-call comparison',
    description: 'the questions expect no API call: an answer that makes tool calls fails',
  },
  {
    name: 'execution',
    weight: 0,
    source: 'stage 3, execution',
    description: 'not applicable: no API calls are expected, so evaluation jobs switch stage 3 off',
  },
  {
    name: 'semantics',
    weight: 0.5,
    source: 'stage 4, semantic judge',
    description:
      'the response judged against expected_outcome.response (judge "local": the offline reference heuristic; "openai": an LLM judge); passes at pass_threshold',
  },
  {
    name: 'agent_routing',
    weight: 0.25,
    source: 'the endpoint\'s "agent"',
    description: 'the agent equals expected_outcome.agent (trimmed, ignoring case); not scored without an expected agent',
  },
  {
    name: 'routing_reason',
    weight: 0.15,
    source: 'the endpoint\'s "reason"',
    description: `the reason against expected_outcome.reason with the reference heuristic (numbers, key facts, ROUGE-L); passes at ${REASON_PASS_THRESHOLD}; not scored without an expected reason`,
  },
] as const satisfies readonly CompatScorer[];

const WEIGHTS = Object.fromEntries(COMPAT_SCORERS.map((s) => [s.name, s.weight])) as Record<CompatScorerName, number>;

export interface QuestionScore {
  passed: boolean;
  /** weighted mean of the scorers that scored; null when none did */
  score: number | null;
  scorers: ScorerResult[];
}

/** Scores one question from its scorecard (undefined: not evaluated) and its test case. */
export function scoreQuestion(card: Scorecard | undefined, testCase: TestCase): QuestionScore {
  if (!card) {
    const scorers = COMPAT_SCORERS.map((s) =>
      result(s.name, null, null, 'not evaluated: the job finished before this question was answered'),
    );
    return { passed: false, score: null, scorers };
  }
  const stages = (['syntax', 'logic', 'execution', 'semantics'] as const).map((name) => stageScorer(card, name));
  const agent = agentScorer(card, testCase);
  const reason = reasonScorer(card, testCase);
  const scorers = [...stages, agent, reason];
  return { passed: card.overall_passed && agent.passed !== false && reason.passed !== false, score: weightedMean(scorers), scorers };
}

/** The job's verdict per scorer: the mean of the questions' scores; passes at the threshold. */
export function aggregateScorers(questions: readonly QuestionScore[], passThreshold: number): ScorerResult[] {
  return COMPAT_SCORERS.map((spec, i) => {
    const perQuestion = questions.map((q) => q.scorers[i]!);
    const scored = perQuestion.filter((r) => r.score !== null);
    if (!scored.length)
      return result(
        spec.name,
        null,
        null,
        spec.weight === 0 ? spec.description : `not scored: ${perQuestion[0]?.rationale ?? 'no questions'}`,
      );
    const score = round(scored.reduce((sum, r) => sum + r.score!, 0) / scored.length);
    const passedCount = scored.filter((r) => r.passed).length;
    const threshold = spec.name === 'routing_reason' ? REASON_PASS_THRESHOLD : passThreshold;
    const unscored = perQuestion.length - scored.length;
    const misses =
      spec.name === 'agent_routing'
        ? perQuestion
            .filter((r) => r.passed === false)
            .slice(0, 3)
            .map((r) => r.rationale)
        : [];
    const rationale = [
      `${passedCount} of ${scored.length} questions passed, mean ${score.toFixed(3)} (passes at ${threshold})`,
      unscored ? `${unscored} not scored` : '',
      misses.length ? `e.g. ${misses.join('; ')}` : '',
    ].filter(Boolean);
    return result(spec.name, score, score >= threshold, `${spec.source}: ${rationale.join('; ')}`);
  });
}

/** The weighted mean of scorer results that scored (weights renormalised); null when none did. */
export function weightedMean(results: readonly ScorerResult[]): number | null {
  let total = 0;
  let weights = 0;
  for (const r of results) {
    if (r.score === null || r.weight === 0) continue;
    total += r.weight * r.score;
    weights += r.weight;
  }
  return weights ? round(total / weights) : null;
}

function stageScorer(card: Scorecard, name: StageName): ScorerResult {
  const stage = card.stages[name];
  const message = stage.message ?? stage.status;
  switch (stage.status) {
    case 'passed':
      return result(name, stage.score ?? 1, true, stage.message ?? 'passed');
    case 'failed':
      return result(name, stage.score ?? 0, false, `${stage.error_code ?? 'failed'}: ${message}`);
    case 'error':
      return result(name, null, null, `could not score (${stage.error_code ?? 'error'}): ${message}`);
    default:
      return result(name, null, null, `not run: ${message}`);
  }
}

function agentScorer(card: Scorecard, testCase: TestCase): ScorerResult {
  const expected = testCase.expected_agent;
  if (!expected) return result('agent_routing', null, null, 'no expected agent given');
  if (!card.agent) return result('agent_routing', 0, false, `no agent reported; expected "${expected}"`);
  const match = agentMatches(expected, card.agent);
  return result(
    'agent_routing',
    match ? 1 : 0,
    match,
    match ? `routed to "${card.agent}"` : `routed to "${card.agent}" instead of "${expected}"`,
  );
}

function reasonScorer(card: Scorecard, testCase: TestCase): ScorerResult {
  const expected = testCase.expected_routing_reason;
  if (!expected) return result('routing_reason', null, null, 'no expected reason given');
  if (!card.routing_reason) return result('routing_reason', 0, false, 'no reason reported');
  const scored = scoreReason(testCase.nl_query, expected, card.routing_reason);
  if (!scored) return result('routing_reason', null, null, 'the expected reason has no words to compare');
  const score = round(scored.score);
  return result('routing_reason', score, score >= REASON_PASS_THRESHOLD, scored.reasoning);
}

function result(name: CompatScorerName, score: number | null, passed: boolean | null, rationale: string): ScorerResult {
  return { name, score, passed, weight: WEIGHTS[name], rationale };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
