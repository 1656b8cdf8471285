import { latencyPercentile } from '../domain/index.js';
import { pairedMeansPValue, TRIAL_MEANS_TEST } from '../compare/index.js';
import { holmAdjust, mcnemarExact, quantileOfSorted, RunningSummary, summarize, welchTTest } from '../statistics/index.js';
import type { PairedOutcomes } from './pairedOutcomes.js';
import type { CategoryEvidence, CriterionEvidence, MetricEvidence, RegressionEvidence } from './regressionEvidence.js';

export const ACCURACY_TEST = 'exact McNemar';
/** the accuracy test once some case's trials disagree (its pass fraction is neither 0 nor 1) */
export const ACCURACY_TRIALS_TEST = TRIAL_MEANS_TEST;
export const LATENCY_TEST = 'paired exceedance test (exact McNemar on cases above the pooled p95)';
export const COST_TEST = "Welch's t on per-case cost";
export const CRITERION_TEST = 'paired t on per-case criterion scores, Holm-adjusted across criteria';

/**
 * The evidence detection weighs, from the paired cases of a run and its baseline, with lib/statistics:
 * - accuracy: paired pass rates, exact McNemar on the discordant pairs; per category the same, Holm-adjusted
 *   across the categories present. With trials the values are per-case pass fractions: while all are 0 or 1
 *   McNemar applies unchanged, else the paired t-test on the per-case differences (McNemar needs binary pairs);
 * - latency p95: each run's p95 (the platform's definition, lib/domain/stats `latencyPercentile`, of the paired
 *   cases' latencies: per-case trial means), and a paired test of the upper tail: every case is marked
 *   above or below the p95 of both runs pooled, and exact McNemar compares the cases above only in the
 *   baseline with those above only in the current run (valid under "the two latencies of a case are
 *   exchangeable"; it needs no shape of the distribution); null when the baseline p95 is 0 (offline scoring);
 * - cost per case: the means, and Welch's t-test on the per-case costs (null with fewer than 2 cases);
 * - per rubric criterion (when both runs' scorecards carry criterion scores): the mean 1-5 score of the cases scored
 *   on it in both, the paired t-test on the per-case differences (the exact sign test when they have no spread),
 *   Holm-adjusted across the criteria.
 */
export function evidenceFrom(paired: PairedOutcomes): RegressionEvidence {
  const { n } = paired;
  if (n === 0) return { paired_cases: 0, accuracy: null, categories: [], latency_p95: null, cost_per_case: null };
  return {
    paired_cases: n,
    accuracy: accuracyEvidence(paired),
    categories: categoryEvidence(paired),
    latency_p95: latencyEvidence(paired),
    cost_per_case: costEvidence(paired),
    ...(paired.criteria?.length ? { criteria: criterionEvidence(paired) } : {}),
  };
}

function criterionEvidence(p: PairedOutcomes): CriterionEvidence[] {
  const raw = (p.criteria ?? []).map(({ name, baseline, current }) => {
    const pairs = new PassPairs();
    for (let i = 0; i < p.n; i++) if (!Number.isNaN(baseline[i]!) && !Number.isNaN(current[i]!)) pairs.add(baseline[i]!, current[i]!);
    return { name, pairs };
  });
  const adjusted = holmAdjust(
    raw.map(({ pairs }) => (pairs.n === 0 ? 1 : pairedMeansPValue(pairs.differences.summary, pairs.down, pairs.up))),
  );
  return raw
    .filter(({ pairs }) => pairs.n > 0)
    .map(({ name, pairs }) => ({
      criterion: name,
      previous: pairs.before / pairs.n,
      current: pairs.after / pairs.n,
      paired_cases: pairs.n,
      p_value_adjusted: adjusted[raw.findIndex((r) => r.name === name)]!,
    }));
}

/** A paired change of per-case pass fractions being counted: the McNemar table while binary, the differences always. */
class PassPairs {
  n = 0;
  before = 0;
  after = 0;
  b = 0;
  c = 0;
  binary = true;
  down = 0;
  up = 0;
  readonly differences = new RunningSummary();

  add(x: number, y: number): void {
    this.n++;
    if (y < x) this.down++;
    else if (y > x) this.up++;
    this.before += x;
    this.after += y;
    if (x > y) {
      if (x === 1 && y === 0) this.b++;
      else this.binary = false;
    } else if (y > x) {
      if (y === 1 && x === 0) this.c++;
      else this.binary = false;
    } else if (x !== 0 && x !== 1) this.binary = false;
    this.differences.add(y - x);
  }

  /** exact McNemar while every value is 0 or 1, else the paired t-test on the differences (lib/compare pairedMeansPValue) */
  pValue(): number {
    if (this.binary) return mcnemarExact(this.b, this.c).p_value;
    return pairedMeansPValue(this.differences.summary, this.down, this.up);
  }

  get test(): string {
    return this.binary ? ACCURACY_TEST : ACCURACY_TRIALS_TEST;
  }
}

function accuracyEvidence(p: PairedOutcomes): MetricEvidence {
  const pairs = new PassPairs();
  for (let i = 0; i < p.n; i++) pairs.add(p.baselinePassed[i]!, p.currentPassed[i]!);
  return { previous: pairs.before / p.n, current: pairs.after / p.n, p_value: pairs.pValue(), test: pairs.test };
}

function categoryEvidence(p: PairedOutcomes): CategoryEvidence[] {
  const counts = p.categories.map(() => new PassPairs());
  for (let i = 0; i < p.n; i++) counts[p.category[i]!]!.add(p.baselinePassed[i]!, p.currentPassed[i]!);
  const adjusted = holmAdjust(counts.map((k) => k.pValue()));
  return p.categories
    .map((category, i) => ({
      category,
      previous: counts[i]!.before / counts[i]!.n,
      current: counts[i]!.after / counts[i]!.n,
      p_value_adjusted: adjusted[i]!,
    }))
    .sort((a, b) => a.category.localeCompare(b.category));
}

function latencyEvidence(p: PairedOutcomes): MetricEvidence | null {
  const previous = latencyPercentile(p.baselineLatencyMs, 0.95) ?? 0;
  if (!(previous > 0)) return null;
  const before = Float64Array.from(p.baselineLatencyMs).sort();
  const after = Float64Array.from(p.currentLatencyMs).sort();
  const pooled = new Float64Array(2 * p.n);
  pooled.set(before);
  pooled.set(after, p.n);
  // the split of the exceedance test (not a reported figure): the pooled type-7 p95
  const threshold = quantileOfSorted(pooled.sort(), 0.95);
  let b = 0;
  let c = 0;
  for (let i = 0; i < p.n; i++) {
    const x = p.baselineLatencyMs[i]! > threshold;
    const y = p.currentLatencyMs[i]! > threshold;
    if (x && !y) b++;
    else if (!x && y) c++;
  }
  return { previous, current: latencyPercentile(p.currentLatencyMs, 0.95) ?? 0, p_value: mcnemarExact(b, c).p_value, test: LATENCY_TEST };
}

function costEvidence(p: PairedOutcomes): MetricEvidence | null {
  if (p.n < 2) return null;
  const before = summarize(p.baselineCostUsd);
  const after = summarize(p.currentCostUsd);
  return { previous: before.mean, current: after.mean, p_value: welchTTest(before, after).p_value, test: COST_TEST };
}
