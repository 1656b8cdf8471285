import { holmAdjust, mcnemarExact, quantileOfSorted, summarize, welchTTest } from '../statistics/index.js';
import type { PairedOutcomes } from './pairedOutcomes.js';
import type { CategoryEvidence, MetricEvidence, RegressionEvidence } from './regressionEvidence.js';

export const ACCURACY_TEST = 'exact McNemar';
export const LATENCY_TEST = 'paired exceedance test (exact McNemar on cases above the pooled p95)';
export const COST_TEST = "Welch's t on per-case cost";

/**
 * The evidence detection weighs, from the paired cases of a run and its baseline, with lib/statistics:
 * - accuracy: paired pass rates, exact McNemar on the discordant pairs; per category the same, Holm-adjusted
 *   across the categories present;
 * - latency p95: each run's p95 (type-7 quantile), and a paired test of the upper tail: every case is marked
 *   above or below the p95 of both runs pooled, and exact McNemar compares the cases above only in the
 *   baseline with those above only in the current run (valid under "the two latencies of a case are
 *   exchangeable"; it needs no shape of the distribution); null when the baseline p95 is 0 (offline scoring);
 * - cost per case: the means, and Welch's t-test on the per-case costs (null with fewer than 2 cases).
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
  };
}

function accuracyEvidence(p: PairedOutcomes): MetricEvidence {
  let before = 0;
  let after = 0;
  let b = 0;
  let c = 0;
  for (let i = 0; i < p.n; i++) {
    const x = p.baselinePassed[i]!;
    const y = p.currentPassed[i]!;
    before += x;
    after += y;
    if (x && !y) b++;
    else if (!x && y) c++;
  }
  return { previous: before / p.n, current: after / p.n, p_value: mcnemarExact(b, c).p_value, test: ACCURACY_TEST };
}

function categoryEvidence(p: PairedOutcomes): CategoryEvidence[] {
  const counts = p.categories.map(() => ({ n: 0, before: 0, after: 0, b: 0, c: 0 }));
  for (let i = 0; i < p.n; i++) {
    const k = counts[p.category[i]!]!;
    const x = p.baselinePassed[i]!;
    const y = p.currentPassed[i]!;
    k.n++;
    k.before += x;
    k.after += y;
    if (x && !y) k.b++;
    else if (!x && y) k.c++;
  }
  const adjusted = holmAdjust(counts.map((k) => mcnemarExact(k.b, k.c).p_value));
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
  const before = Float64Array.from(p.baselineLatencyMs).sort();
  const after = Float64Array.from(p.currentLatencyMs).sort();
  const previous = quantileOfSorted(before, 0.95);
  if (!(previous > 0)) return null;
  const pooled = new Float64Array(2 * p.n);
  pooled.set(before);
  pooled.set(after, p.n);
  const threshold = quantileOfSorted(pooled.sort(), 0.95);
  let b = 0;
  let c = 0;
  for (let i = 0; i < p.n; i++) {
    const x = p.baselineLatencyMs[i]! > threshold;
    const y = p.currentLatencyMs[i]! > threshold;
    if (x && !y) b++;
    else if (!x && y) c++;
  }
  return { previous, current: quantileOfSorted(after, 0.95), p_value: mcnemarExact(b, c).p_value, test: LATENCY_TEST };
}

function costEvidence(p: PairedOutcomes): MetricEvidence | null {
  if (p.n < 2) return null;
  const before = summarize(p.baselineCostUsd);
  const after = summarize(p.currentCostUsd);
  return { previous: before.mean, current: after.mean, p_value: welchTTest(before, after).p_value, test: COST_TEST };
}
