import {
  type Alert,
  type Comparison,
  emptyRunStatsState,
  type FlippedCase,
  isScored,
  NO_CATEGORY,
  type Scorecard,
  STAGE_NAMES,
  type TestCase,
  toRunStats,
  trialsOf,
  type SloCompliance,
} from '../domain/index.js';
import { compareRuns, EfficiencyStatsBuilder, rateOf as rateWithConfidence, type TrialOutcome, trialStatsOf } from '../compare/index.js';
import { NotFoundError, type AlertStore, type Clock, type Stores } from '../ports/index.js';
import { describeFailure, diffLines, withoutRepeats } from './failureDiff.js';
import { trajectoryLines } from './trajectoryLines.js';
import { LatencyHistogramBuilder } from './latencyHistogram.js';
import type { ReportCase, ReportCaseList, RunReport } from './reportModel.js';
import { StageFunnelBuilder } from './stageFunnel.js';
import { JudgingSummaryBuilder, withCalibrations } from './judgingSummary.js';
import { SampleBreakdownBuilder } from './sampleBreakdown.js';
import { CompatSummaryBuilder } from './compatSummary.js';

/** What a report reads: the stores (alerts optional) and, for `compareWith`, the run comparison. */
export interface ReportDeps {
  stores: Pick<Stores, 'runs' | 'runStats' | 'scorecards' | 'testCases'> & {
    alerts?: Pick<AlertStore, 'listAlerts'>;
    calibrations?: Pick<Stores['calibrations'], 'get'>;
  };
  clock: Clock;
  /** the run's latency SLO compliance (lib/alerts runSloCompliance; the caller supplies it: reports sit beside alerts) */
  sloCompliance?: (runId: string) => Promise<SloCompliance[] | null>;
  /** compares `[base, head]`; default lib/compare's compareRuns on the same stores */
  compare?: (runIds: readonly [string, string], options: { maxFlipped: number }) => Promise<Comparison>;
}

export interface RunReportOptions {
  /** a base run to compare with (its id) */
  compareWith?: string;
  /** failing cases listed (all are counted); default 100 */
  maxFailures?: number;
  /** flipped cases listed each way (all are counted); default 100 */
  maxFlipped?: number;
}

export const DEFAULT_MAX_LISTED = 100;

/** A pass rate with its 95% Wilson interval (the Comparison's Rate shape). */
const rateOf = (passed: number, n: number) => rateWithConfidence(passed, n, 0.95);

/**
 * The report of one run: its RunStats, intervals, the stage funnel, a latency histogram, the failing cases (capped)
 * with their questions and diffs, its alerts and, with `compareWith`, the comparison with a base run. Streams the
 * scorecards once; memory holds only the listed cases.
 */
export async function buildRunReport(runId: string, deps: ReportDeps, options: RunReportOptions = {}): Promise<RunReport> {
  const { stores } = deps;
  const stored = await stores.runs.getRun(runId);
  if (!stored) throw new NotFoundError('run', runId);
  const { _etag, ...run } = stored;
  const now = deps.clock.now().toISOString();
  const stats = (await stores.runStats.getRunStats(runId)) ?? toRunStats(runId, emptyRunStatsState(), run.total_cases, now);

  const maxFailures = options.maxFailures ?? DEFAULT_MAX_LISTED;
  const funnel = new StageFunnelBuilder();
  const histogram = new LatencyHistogramBuilder(stats.latency_ms.p99);
  const judging = new JudgingSummaryBuilder();
  const failures: ReportCase[] = [];
  let failed = 0;
  const trials = trialsOf(run.config);
  const trialOutcomes: TrialOutcome[] = [];
  const sampled = run.sample ? new SampleBreakdownBuilder(run.sample) : undefined;
  const compat = run.config.compat ? new CompatSummaryBuilder(run.config.compat) : undefined;
  const efficiency = new EfficiencyStatsBuilder();
  for await (const card of stores.scorecards.iterateScorecards(runId)) {
    // not-scored cases (infrastructure failures) are counted in stats.not_scored, never listed as model failures
    if (!isScored(card)) continue;
    if (trials > 1) trialOutcomes.push({ test_case_id: card.test_case_id, trial: card.trial, overall_passed: card.overall_passed });
    funnel.add(card);
    histogram.add(card.latency_ms);
    judging.add(card);
    sampled?.add(card);
    compat?.add(card);
    efficiency.add(card);
    if (card.overall_passed) continue;
    failed += 1;
    if (failures.length < maxFailures) failures.push(caseOfCard(card));
  }

  const comparison = options.compareWith
    ? await compareSection(options.compareWith, runId, deps, options.maxFlipped ?? DEFAULT_MAX_LISTED)
    : null;
  const listed = [...failures, ...(comparison ? [...comparison.newly_failing.cases, ...comparison.newly_passing.cases] : [])];
  const gold = await goldOf(
    stores,
    listed.map((c) => c.test_case_id),
  );
  const withQuestion = (c: ReportCase): ReportCase => {
    const tc = gold.get(c.test_case_id);
    const turn = c.failing_turn === undefined ? undefined : tc?.turns?.[c.failing_turn];
    if (turn) {
      // a conversation: the failing turn's message and calls
      const n = tc?.turns?.length ?? 0;
      return {
        ...c,
        question: `turn ${c.failing_turn! + 1} of ${n}: ${turn.user}`,
        ...(c.actual_calls
          ? { expected_calls: turn.expected_tool_calls.map((x) => ({ tool_name: x.tool_name, arguments: x.arguments })) }
          : {}),
      };
    }
    // expected calls only beside the actual ones this run made (flipped cases carry no calls)
    return {
      ...c,
      question: tc?.nl_query ?? null,
      ...(c.actual_calls && tc
        ? { expected_calls: tc.expected_tool_calls.map((x) => ({ tool_name: x.tool_name, arguments: x.arguments })) }
        : {}),
    };
  };
  const withQuestions = (list: ReportCaseList): ReportCaseList => ({ total: list.total, cases: list.cases.map(withQuestion) });

  return {
    kind: 'run',
    generated_at: now,
    run,
    stats,
    pass_rate: rateOf(stats.passed, stats.scored),
    stages: STAGE_NAMES.map((stage) => {
      const s = stats.stages[stage] ?? { ran: 0, passed: 0 };
      return { stage, ran: s.ran, passed: s.passed, rate: rateOf(s.passed, s.ran) };
    }),
    funnel: funnel.result(),
    categories: Object.entries(stats.by_category)
      .sort(([a], [b]) => (a === NO_CATEGORY ? 1 : b === NO_CATEGORY ? -1 : a.localeCompare(b)))
      .map(([category, c]) => ({ category, rate: rateOf(c.passed, c.completed) })),
    latency_histogram: histogram.result(),
    error_codes: Object.entries(stats.error_codes)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([code, count]) => ({ code, count })),
    failures: { total: failed, cases: failures.map(withQuestion) },
    ...(trials > 1 ? { trial_stats: await trialStatsOf(trialOutcomes, trials) } : {}),
    ...(sampled ? { sample: sampled.result() } : {}),
    ...(compat ? { compat: compat.result() } : {}),
    efficiency: efficiency.result(),
    judging: stores.calibrations ? await withCalibrations(judging.result(), (id) => stores.calibrations!.get(id)) : judging.result(),
    alerts: stores.alerts ? await alertsOf(stores.alerts, runId) : null,
    slo_compliance: deps.sloCompliance ? await deps.sloCompliance(runId) : null,
    comparison: comparison && {
      ...comparison,
      newly_failing: withQuestions(comparison.newly_failing),
      newly_passing: withQuestions(comparison.newly_passing),
    },
  };
}

function caseOfCard(card: Scorecard): ReportCase {
  const failure = describeFailure(card);
  const turn = card.failing_turn === undefined ? undefined : card.turns?.[card.failing_turn];
  if (turn) {
    return {
      ...singleCaseOfCard(card, failure),
      failing_turn: turn.index,
      ...(turn.trajectory ? { trajectory: trajectoryLines(turn.trajectory) } : {}),
      actual_calls: turn.generated_tool_calls.map((c) => ({ tool_name: c.tool_name, arguments: c.arguments })),
    };
  }
  return singleCaseOfCard(card, failure);
}

function singleCaseOfCard(card: Scorecard, failure: ReturnType<typeof describeFailure>): ReportCase {
  return {
    test_case_id: card.test_case_id,
    question: null,
    category: card.category,
    failing_stage: failure?.stage ?? null,
    status: failure?.status ?? null,
    error_code: failure?.error_code ?? null,
    message: failure?.message ?? '',
    diff: failure?.diff ?? [],
    ...(card.trajectory ? { trajectory: trajectoryLines(card.trajectory) } : {}),
    score: card.overall_score,
    latency_ms: card.latency_ms,
    actual_calls: card.generated_tool_calls.map((c) => ({ tool_name: c.tool_name, arguments: c.arguments })),
  };
}

async function compareSection(
  baseRunId: string,
  runId: string,
  deps: ReportDeps,
  maxFlipped: number,
): Promise<NonNullable<RunReport['comparison']>> {
  const base = await deps.stores.runs.getRun(baseRunId);
  if (!base) throw new NotFoundError('run', baseRunId);
  const { _etag, ...baseRun } = base;
  const compare = deps.compare ?? ((ids, o) => compareRuns(ids, deps, { max_flipped: o.maxFlipped }));
  const comparison = await compare([baseRunId, runId], { maxFlipped });
  const pair = comparison.pairs[0];
  const flipped = (list: { total: number; cases: FlippedCase[] } | undefined, side: 'candidate' | 'baseline'): ReportCaseList => ({
    total: list?.total ?? 0,
    cases: (list?.cases ?? []).slice(0, maxFlipped).map((f) => caseOfFlip(f, side)),
  });
  return {
    base_run: baseRun,
    comparison,
    newly_failing: flipped(pair?.flipped.newly_failing, 'candidate'),
    newly_passing: flipped(pair?.flipped.newly_passing, 'baseline'),
  };
}

/** A flipped case described by the side that failed (the candidate for newly failing, the base for newly passing). */
function caseOfFlip(flip: FlippedCase, failedSide: 'candidate' | 'baseline'): ReportCase {
  const side = flip[failedSide];
  return {
    test_case_id: flip.test_case_id,
    question: null,
    category: flip.category,
    failing_stage: side.failing_stage,
    status: side.failing_stage ? 'failed' : null,
    error_code: side.error_code,
    message: side.message ?? '',
    diff: side.failing_stage ? withoutRepeats(side.message ?? '', diffLines(side.failing_stage, side.details)) : [],
    score: flip.candidate.score,
    latency_ms: null,
  };
}

async function goldOf(stores: ReportDeps['stores'], ids: readonly string[]): Promise<Map<string, TestCase>> {
  const unique = [...new Set(ids)];
  const gold = new Map<string, TestCase>();
  for (let i = 0; i < unique.length; i += 500) {
    for (const tc of await stores.testCases.getTestCases(unique.slice(i, i + 500))) gold.set(tc.id, tc);
  }
  return gold;
}

async function alertsOf(alerts: NonNullable<ReportDeps['stores']['alerts']>, runId: string): Promise<Alert[]> {
  const page = await alerts.listAlerts({ run_id: runId }, { limit: 100 });
  return page.items.map(({ _etag, ...alert }) => alert);
}
