import { binomialCdf } from './distributions.js';
import { assertConfidence, DEFAULT_CONFIDENCE, type EstimateInterval } from './interval.js';

/** Quantile q of ascending-sorted values, linear interpolation between order statistics (R type 7, numpy default). */
export function quantileOfSorted(sorted: Float64Array | readonly number[], q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  const x = sorted[lo] as number;
  return x + (h - lo) * ((sorted[hi] as number) - x);
}

/** Smallest k in [lo, hi] with pred(k) true, or hi + 1 (pred monotone false..true). */
function firstTrue(lo: number, hi: number, pred: (k: number) => boolean): number {
  let a = lo;
  let b = hi + 1;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (pred(mid)) b = mid;
    else a = mid + 1;
  }
  return a;
}

/**
 * The 0-based ranks of the distribution-free order-statistic interval of quantile q among n sorted values (see
 * `percentileInterval`): [sorted[lower], sorted[upper]] covers the true quantile with probability >= confidence
 * (a side n cannot bound is rank 0 or n - 1). Exported so that a sketch (lib/domain/stats LogHistogram) can report
 * the same interval from its counts.
 */
export function orderStatisticRanks(n: number, q: number, confidence: number = DEFAULT_CONFIDENCE): { lower: number; upper: number } {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`q must be in [0, 1], got ${q}`);
  assertConfidence(confidence);
  if (!(n >= 1)) throw new RangeError(`need at least one value, got n = ${n}`);
  const tail = (1 - confidence) / 2;
  // l = the largest rank (1-based) with F(l - 1) <= tail; u = the smallest with F(u - 1) >= 1 - tail
  const l = firstTrue(0, n, (k) => binomialCdf(k, n, q) > tail); // = largest k with F(k - 1) <= tail
  const u = firstTrue(1, n, (k) => binomialCdf(k - 1, n, q) >= 1 - tail);
  return { lower: Math.max(0, l - 1), upper: Math.min(n, u) - 1 };
}

/**
 * Quantile q of the values with a distribution-free order-statistic interval (Conover, Practical Nonparametric
 * Statistics, 3rd ed., 1999, sec. 3.2; the same construction as scipy.stats.quantile_test's confidence interval):
 * the count of values below the true quantile is Binomial(n, q), so [x(l), x(u)] with
 * P(l <= B < u) >= confidence covers it. Ranks come from the exact binomial CDF (binary search). No assumption
 * about the shape of the latency distribution, O(n log n) for the sort. When n is too small for the confidence,
 * the missing bound is the sample minimum or maximum (coverage then below nominal). The values are not modified.
 * (Run latency percentiles shown by the platform use lib/domain/stats `latencyPercentile`, not this estimate.)
 */
export function percentileInterval(
  values: Float64Array | readonly number[],
  q: number,
  options: { confidence?: number; sorted?: boolean } = {},
): EstimateInterval {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`q must be in [0, 1], got ${q}`);
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  assertConfidence(confidence);
  const n = values.length;
  if (n === 0) return { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN };
  const sorted = options.sorted ? values : Float64Array.from(values).sort();
  const ranks = orderStatisticRanks(n, q, confidence);
  return {
    estimate: quantileOfSorted(sorted, q),
    lower: sorted[ranks.lower] as number,
    upper: sorted[ranks.upper] as number,
  };
}
