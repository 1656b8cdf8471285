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
import { criterionDeltas } from './criterionDeltas.js';
import { groupDeltas } from './groupDeltas.js';
import { PairedMeans } from './pairedMeans.js';
import type { RunCases } from './runCases.js';
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

function addTo(tables: Map<string, PairedMeans>, key: string, a: number, b: number): void {
  let means = tables.get(key);
  if (!means) tables.set(key, (means = new PairedMeans()));
  means.add(a, b);
}

const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * Compares a candidate run with the baseline on the cases both scored (`candidate.pair`): one pass over the
 * candidate's cases fills the paired tables (overall, per stage, per category/tag/complexity of the baseline's
 * case), the paired score arrays and the latency/cost summaries; then the statistics. Pure (no I/O).
 *
 * The unit is the case: with trials, each side's value of a case is its mean over its scored trials (pass fraction,
 * score, latency, cost; a stage's pass fraction over the trials it ran in), so runs with any number of trials pair
 * case by case. Pass-rate changes use exact McNemar while every paired value is 0 or 1 (always with one trial),
 * else the paired t-test on the per-case differences (PairedMeans); the Bayesian view counts the paired cases'
 * trials.
 */
export function pairRuns(
  runs: { baseline: Run; candidate: Run; baselineLabel: string; candidateLabel: string },
  baseline: RunCases,
  candidate: RunCases,
  options: ComparisonOptions,
): PairedRuns {
  const { confidence, alpha } = options;
  const overall = new PairedMeans();
  const stages = STAGE_NAMES.map(() => new PairedMeans());
  const byCategory = new Map<string, PairedMeans>();
  const byTag = new Map<string, PairedMeans>();
  const byComplexity = new Map<string, PairedMeans>();
  const aScore = new Float64Array(candidate.size);
  const bScore = new Float64Array(candidate.size);
  const latency = [new RunningSummary(), new RunningSummary()] as const;
  const cost = [new RunningSummary(), new RunningSummary()] as const;
  const trialCounts = { a: { passed: 0, n: 0 }, b: { passed: 0, n: 0 } };
  const newlyFailing: number[] = [];
  const newlyPassing: number[] = [];
  let shared = 0;
  for (let i = 0; i < candidate.size; i++) {
    const j = candidate.pair[i] as number;
    if (j < 0) continue;
    const a = baseline.passFraction(j);
    const b = candidate.passFraction(i);
    overall.add(a, b);
    if (a > b) newlyFailing.push(j);
    if (a < b) newlyPassing.push(j);
    trialCounts.a.passed += baseline.passes[j] as number;
    trialCounts.a.n += baseline.trials[j] as number;
    trialCounts.b.passed += candidate.passes[i] as number;
    trialCounts.b.n += candidate.trials[i] as number;
    STAGE_NAMES.forEach((_, s) => {
      const sa = baseline.stageFraction(j, s);
      const sb = candidate.stageFraction(i, s);
      if (sa >= 0 && sb >= 0) (stages[s] as PairedMeans).add(sa, sb);
    });
    addTo(byCategory, baseline.categoryOf(j) ?? NO_CATEGORY, a, b);
    for (const tag of baseline.tagsOf(j)) addTo(byTag, tag, a, b);
    addTo(byComplexity, String(baseline.complexity[j]), a, b);
    aScore[shared] = baseline.meanScore(j);
    bScore[shared] = candidate.meanScore(i);
    shared++;
    latency[0].add(baseline.meanLatency(j));
    latency[1].add(candidate.meanLatency(i));
    cost[0].add(baseline.meanCost(j));
    cost[1].add(candidate.meanCost(i));
  }
  const a = aScore.subarray(0, shared);
  const b = bScore.subarray(0, shared);
  const overallDelta = overall.delta({ confidence, alpha });
  const differences = summarize(b.map((x, i) => x - (a[i] as number)));
  const discordance = shared === 0 ? null : (overall.down + overall.up) / shared;
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
    bayesian: bayesianPassRateComparison(trialCounts.a, trialCounts.b, { seed: options.seed, confidence }),
    score: {
      baseline_mean: shared === 0 ? null : summarize(a).mean,
      candidate_mean: shared === 0 ? null : summarize(b).mean,
      difference: shared === 0 ? null : pairedBootstrapMeanDiff(a, b, { seed: options.seed, confidence }),
      p_value: shared < 2 ? 1 : pairedTTest(differences, { confidence }).p_value,
      test: 'paired bootstrap',
    },
    stages: STAGE_NAMES.map((stage, s) => ({ stage, ...(stages[s] as PairedMeans).delta({ confidence, alpha }) })).filter(
      (d) => d.paired_cases > 0,
    ),
    ...families,
    latency_ms: welch(latency[0].summary, latency[1].summary, confidence),
    cost_per_case_usd: welch(cost[0].summary, cost[1].summary, confidence),
    criteria: criterionDeltas(baseline, candidate, { confidence, alpha }),
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
