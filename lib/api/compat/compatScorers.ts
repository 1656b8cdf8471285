import type { JudgeCriterion, Scorecard, StageName, TestCase } from '../../domain/index.js';
import { agentMatches, REASON_PASS_THRESHOLD, scoreReason } from '../../evaluation/index.js';
import { distinctNumbers, extractNumbers, findNumbers, NUMBER_RELATIVE_TOLERANCE } from '../../metrics/index.js';
import type { CriterionVerdict } from '../../ports/index.js';
import type { CompatScorerName } from './compatScorerNames.js';
import type { ScorerResult } from './compatSchemas.js';

export { COMPAT_SCORER_NAMES, DEFAULT_REQUIRED_SCORERS, type CompatScorerName } from './compatScorerNames.js';

/**
 * The rubric criterion behind `data_methodology`: added to the LLM judge's criteria of a job (judge "openai"), so it
 * is judged with analysis first like the others (G-Eval) and its 1-5 score maps to 0-1.
 */
export const DATA_METHODOLOGY_CRITERION: JudgeCriterion = {
  name: 'data_methodology',
  description:
    'Did the answer come from the right data source and the right method: the data the question needs (the right system, record, period and unit), figures derived correctly from it (sums, rates, comparisons), and no guessing where data was needed?',
  rubric: [
    'The answer is guessed, or uses plainly the wrong data or method.',
    'The data source or the method is mostly wrong; a small part is right.',
    'The right kind of data, but a clear flaw in what was taken or how it was computed.',
    'The right data and method, with a minor slip (period, rounding, unit) that changes little.',
    'The right data source and method throughout.',
  ],
  weight: 1,
};

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
    weight: 0.35,
    source: 'stage 4, semantic judge',
    description:
      'the response judged against expected_outcome.response (judge "local": the offline reference heuristic; "openai": an LLM judge); passes at pass_threshold',
  },
  {
    name: 'agent_routing',
    weight: 0.2,
    source: 'the endpoint\'s "agent"',
    description: 'the agent equals expected_outcome.agent (trimmed, ignoring case); not scored without an expected agent',
  },
  {
    name: 'routing_reason',
    weight: 0.1,
    source: 'the endpoint\'s "reason"',
    description: `the reason against expected_outcome.reason with the reference heuristic (numbers, key facts, ROUGE-L); passes at ${REASON_PASS_THRESHOLD}; not scored without an expected reason`,
  },
  {
    name: 'numerical_accuracy',
    weight: 0.15,
    source: "the endpoint's response",
    description: `every number in expected_outcome.response appears in the response (within the stage-3 relative tolerance of ${NUMBER_RELATIVE_TOLERANCE}; $1,234.50 = 1234.5, 12% = 0.12); score = the share found; not scored when the expected response states no number`,
  },
  {
    name: 'data_methodology',
    weight: 0.1,
    source: "stage 4, the judge's data_methodology criterion",
    description:
      'the LLM judge (judge "openai") rates whether the answer used the right data source and method (1-5, mapped to 0-1); passes at pass_threshold; not scored with the offline judge',
  },
] as const satisfies readonly CompatScorer[];

const WEIGHTS = Object.fromEntries(COMPAT_SCORERS.map((s) => [s.name, s.weight])) as Record<CompatScorerName, number>;

export interface QuestionScore {
  passed: boolean;
  /** weighted mean of the scorers that scored; null when none did */
  score: number | null;
  scorers: ScorerResult[];
}

/** Which scorers are required (the others are optional). */
export type RequiredScorers = ReadonlySet<string>;

/**
 * Scores one question from its scorecard (undefined: not evaluated) and its test case. It passes when no required
 * scorer failed and, as before, the run's own verdict on the case and the routing checks did not fail.
 */
export function scoreQuestion(
  card: Scorecard | undefined,
  testCase: TestCase,
  passThreshold: number,
  required: RequiredScorers,
): QuestionScore {
  if (!card) {
    const scorers = COMPAT_SCORERS.map((s) =>
      result(s.name, null, null, 'not evaluated: the job finished before this question was answered', required),
    );
    return { passed: false, score: null, scorers };
  }
  const stages = (['syntax', 'logic', 'execution', 'semantics'] as const).map((name) => stageScorer(card, name, required));
  const agent = agentScorer(card, testCase, required);
  const reason = reasonScorer(card, testCase, required);
  const numbers = numericalAccuracyScorer(card, testCase, required);
  const methodology = methodologyScorer(card, passThreshold, required);
  const scorers = [...stages, agent, reason, numbers, methodology];
  const requiredFailed = scorers.some((r) => r.required && r.passed === false);
  return {
    passed: card.overall_passed && agent.passed !== false && reason.passed !== false && !requiredFailed,
    score: weightedMean(scorers),
    scorers,
  };
}

/** The job's verdict per scorer: the mean of the questions' scores; passes at the threshold. */
export function aggregateScorers(questions: readonly QuestionScore[], passThreshold: number, required: RequiredScorers): ScorerResult[] {
  return COMPAT_SCORERS.map((spec, i) => {
    const perQuestion = questions.map((q) => q.scorers[i]!);
    const scored = perQuestion.filter((r) => r.score !== null);
    if (!scored.length)
      return result(
        spec.name,
        null,
        null,
        spec.weight === 0 ? spec.description : `not scored: ${perQuestion[0]?.rationale ?? 'no questions'}`,
        required,
      );
    const score = round(scored.reduce((sum, r) => sum + r.score!, 0) / scored.length);
    const passedCount = scored.filter((r) => r.passed).length;
    const threshold = spec.name === 'routing_reason' ? REASON_PASS_THRESHOLD : spec.name === 'numerical_accuracy' ? 1 : passThreshold;
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
    return result(spec.name, score, score >= threshold, `${spec.source}: ${rationale.join('; ')}`, required);
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

function stageScorer(card: Scorecard, name: StageName, required: RequiredScorers): ScorerResult {
  const stage = card.stages[name];
  const message = stage.message ?? stage.status;
  switch (stage.status) {
    case 'passed':
      return result(name, stage.score ?? 1, true, stage.message ?? 'passed', required);
    case 'failed':
      return result(name, stage.score ?? 0, false, `${stage.error_code ?? 'failed'}: ${message}`, required);
    case 'error':
      return result(name, null, null, `could not score (${stage.error_code ?? 'error'}): ${message}`, required);
    default:
      return result(name, null, null, `not run: ${message}`, required);
  }
}

function agentScorer(card: Scorecard, testCase: TestCase, required: RequiredScorers): ScorerResult {
  const expected = testCase.expected_agent;
  if (!expected) return result('agent_routing', null, null, 'no expected agent given', required);
  if (!card.agent) return result('agent_routing', 0, false, `no agent reported; expected "${expected}"`, required);
  const match = agentMatches(expected, card.agent);
  return result(
    'agent_routing',
    match ? 1 : 0,
    match,
    match ? `routed to "${card.agent}"` : `routed to "${card.agent}" instead of "${expected}"`,
    required,
  );
}

function reasonScorer(card: Scorecard, testCase: TestCase, required: RequiredScorers): ScorerResult {
  const expected = testCase.expected_routing_reason;
  if (!expected) return result('routing_reason', null, null, 'no expected reason given', required);
  if (!card.routing_reason) return result('routing_reason', 0, false, 'no reason reported', required);
  const scored = scoreReason(testCase.nl_query, expected, card.routing_reason);
  if (!scored) return result('routing_reason', null, null, 'the expected reason has no words to compare', required);
  const score = round(scored.score);
  return result('routing_reason', score, score >= REASON_PASS_THRESHOLD, scored.reasoning, required);
}

/** The expected response's numbers found in the answer (an answer that is a target error is not scored here). */
function numericalAccuracyScorer(card: Scorecard, testCase: TestCase, required: RequiredScorers): ScorerResult {
  const expected = distinctNumbers(extractNumbers(testCase.expected_nl_response ?? ''));
  if (!expected.length) return result('numerical_accuracy', null, null, 'the expected response states no number', required);
  if (card.stages.syntax.status === 'error')
    return result('numerical_accuracy', null, null, 'not scored: the endpoint did not answer', required);
  const answer = card.generated_nl_response ?? '';
  if (!answer.trim()) return result('numerical_accuracy', 0, false, 'no response to look for numbers in', required);
  const { found, missing } = findNumbers(expected, extractNumbers(answer));
  const score = round(found.length / expected.length);
  const rationale = missing.length
    ? `${found.length} of ${expected.length} expected numbers stated; missing ${missing.map((m) => m.text).join(', ')}`
    : `all ${expected.length} expected numbers stated (${expected.map((m) => m.text).join(', ')})`;
  return result('numerical_accuracy', score, missing.length === 0, rationale, required);
}

/** The judge's data_methodology criterion (1-5 -> 0-1), when the job's judge scored it. */
function methodologyScorer(card: Scorecard, passThreshold: number, required: RequiredScorers): ScorerResult {
  const semantics = card.stages.semantics;
  if (semantics.status === 'skipped' || semantics.status === 'error')
    return result('data_methodology', null, null, `not scored: the judge did not score this answer (${semantics.status})`, required);
  const criteria = (semantics.details as { criteria?: CriterionVerdict[] } | undefined)?.criteria ?? [];
  const verdict = criteria.find((c) => c.name === DATA_METHODOLOGY_CRITERION.name);
  if (!verdict)
    return result(
      'data_methodology',
      null,
      null,
      'not scored: needs the LLM judge (judge "openai"); the offline judge has no rubric criteria',
      required,
    );
  const score = round((verdict.score - 1) / 4);
  return result(
    'data_methodology',
    score,
    score >= passThreshold,
    `${verdict.score.toFixed(2)}/5: ${verdict.reasoning.slice(0, 300)}`,
    required,
  );
}

function result(
  name: CompatScorerName,
  score: number | null,
  passed: boolean | null,
  rationale: string,
  required: RequiredScorers,
): ScorerResult {
  return { name, score, passed, weight: WEIGHTS[name], required: required.has(name), rationale };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
