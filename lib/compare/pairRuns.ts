import { STAGE_NAMES, type ComparisonOptions, type PairComparison, type Run, type WelchResult } from '../domain/index.js';
import {
  bayesianPassRateComparison,
  minimumDetectableEffect,
  pairedBootstrapMeanDiff,
  pairedTTest,
  RunningSummary,
  summarize,
  welchTTest,
  type SampleSummary,
} from '../statistics/index.js';
import { groupDeltas } from './groupDeltas.js';
import { countPair, emptyCounts, passRateDelta, type Counts } from './passRateDelta.js';
import { STAGE_CODE, type RunCases } from './runCases.js';
import { verdictOf } from './significanceText.js';

export const NO_CATEGORY = '(none)';

/** The pair's figures plus the baseline indices of its flipped cases (their details are read afterwards). */
export interface PairedRuns {
  pair: PairComparison;
  newlyFailing: number[];
  newlyPassing: number[];
}

function welch(x: SampleSummary, y: SampleSummary, confidence: number): WelchResult | null {
  if (x.n < 2 || y.n < 2) return null;
  const r = welchTTest(x, y, { confidence });
  return { difference: r.difference, lower: r.lower, upper: r.upper, t: r.t, df: r.df, p_value: r.p_value };
}

function addTo(tables: Map<string, Counts>, key: string, a: boolean, b: boolean): void {
  let counts = tables.get(key);
  if (!counts) tables.set(key, (counts = emptyCounts()));
  countPair(counts, a, b);
}

const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * Compares a candidate run with the baseline on the cases both scored (`candidate.pair`): one pass over the
 * candidate's cases fills the paired 2x2 tables (overall, per stage, per category/tag/complexity of the baseline's
 * case), the paired score arrays and the latency/cost summaries; then the statistics. Pure (no I/O).
 */
export function pairRuns(
  runs: { baseline: Run; candidate: Run; baselineLabel: string; candidateLabel: string },
  baseline: RunCases,
  candidate: RunCases,
  options: ComparisonOptions,
): PairedRuns {
  const { confidence, alpha } = options;
  const overall = emptyCounts();
  const stages = STAGE_NAMES.map(() => emptyCounts());
  const byCategory = new Map<string, Counts>();
  const byTag = new Map<string, Counts>();
  const byComplexity = new Map<string, Counts>();
  const aScore = new Float64Array(candidate.size);
  const bScore = new Float64Array(candidate.size);
  const latency = [new RunningSummary(), new RunningSummary()] as const;
  const cost = [new RunningSummary(), new RunningSummary()] as const;
  const newlyFailing: number[] = [];
  const newlyPassing: number[] = [];
  let shared = 0;
  for (let i = 0; i < candidate.size; i++) {
    const j = candidate.pair[i] as number;
    if (j < 0) continue;
    const a = baseline.passed[j] === 1;
    const b = candidate.passed[i] === 1;
    countPair(overall, a, b);
    if (a && !b) newlyFailing.push(j);
    if (!a && b) newlyPassing.push(j);
    STAGE_NAMES.forEach((_, s) => {
      const sa = baseline.stage(j, s);
      const sb = candidate.stage(i, s);
      if (sa !== STAGE_CODE.skipped && sb !== STAGE_CODE.skipped)
        countPair(stages[s] as Counts, sa === STAGE_CODE.passed, sb === STAGE_CODE.passed);
    });
    addTo(byCategory, baseline.categoryOf(j) ?? NO_CATEGORY, a, b);
    for (const tag of baseline.tagsOf(j)) addTo(byTag, tag, a, b);
    addTo(byComplexity, String(baseline.complexity[j]), a, b);
    aScore[shared] = baseline.score[j] as number;
    bScore[shared] = candidate.score[i] as number;
    shared++;
    latency[0].add(baseline.latency[j] as number);
    latency[1].add(candidate.latency[i] as number);
    cost[0].add(baseline.cost[j] as number);
    cost[1].add(candidate.cost[i] as number);
  }
  const a = aScore.subarray(0, shared);
  const b = bScore.subarray(0, shared);
  const overallDelta = passRateDelta(overall, { confidence, alpha });
  const differences = summarize(b.map((x, i) => x - (a[i] as number)));
  const discordance = shared === 0 ? null : (overall[1] + overall[2]) / shared;
  const families = {
    by_category: groupDeltas(byCategory, { confidence, alpha }),
    by_tag: groupDeltas(byTag, { confidence, alpha }),
    by_complexity: groupDeltas(byComplexity, { confidence, alpha }),
  };
  const pair: PairComparison = {
    label: `${runs.candidateLabel} vs ${runs.baselineLabel}`,
    baseline_run_id: runs.baseline.id,
    candidate_run_id: runs.candidate.id,
    same_suite: runs.baseline.suite_id === runs.candidate.suite_id,
    cases: {
      baseline: baseline.size,
      candidate: candidate.size,
      shared,
      only_baseline: baseline.size - shared,
      only_candidate: candidate.size - shared,
    },
    overall: overallDelta,
    bayesian: bayesianPassRateComparison(
      { passed: overall[0] + overall[1], n: shared },
      { passed: overall[0] + overall[2], n: shared },
      { seed: options.seed, confidence },
    ),
    score: {
      baseline_mean: shared === 0 ? null : summarize(a).mean,
      candidate_mean: shared === 0 ? null : summarize(b).mean,
      difference: shared === 0 ? null : pairedBootstrapMeanDiff(a, b, { seed: options.seed, confidence }),
      p_value: shared < 2 ? 1 : pairedTTest(differences, { confidence }).p_value,
      test: 'paired bootstrap',
    },
    stages: STAGE_NAMES.map((stage, s) => ({ stage, ...passRateDelta(stages[s] as Counts, { confidence, alpha }) })).filter(
      (d) => d.paired_cases > 0,
    ),
    ...families,
    latency_ms: welch(latency[0].summary, latency[1].summary, confidence),
    cost_per_case_usd: welch(cost[0].summary, cost[1].summary, confidence),
    flipped: { newly_failing: { total: newlyFailing.length, cases: [] }, newly_passing: { total: newlyPassing.length, cases: [] } },
    minimum_detectable_effect: {
      paired: shared === 0 ? null : finiteOrNull(minimumDetectableEffect({ n: shared, discordance: discordance ?? 0, alpha })),
      unpaired:
        shared === 0 ? null : finiteOrNull(minimumDetectableEffect({ n: shared, baselineRate: overallDelta.baseline.rate ?? 0.5, alpha })),
      discordance,
      alpha,
      power: 0.8,
    },
    significant:
      overallDelta.significant || [...families.by_category, ...families.by_tag, ...families.by_complexity].some((g) => g.significant),
    verdict: '',
  };
  pair.verdict = verdictOf(pair, { baseline: runs.baselineLabel, candidate: runs.candidateLabel, confidence });
  return { pair, newlyFailing, newlyPassing };
}
