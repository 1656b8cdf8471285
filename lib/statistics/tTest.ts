import { studentTCdf, studentTQuantile } from './distributions.js';
import { assertConfidence, DEFAULT_CONFIDENCE } from './interval.js';
import type { SampleSummary } from './summary.js';

export interface TTestResult {
  t: number | null;
  df: number | null;
  /** two-sided */
  p_value: number;
  /** mean(y) - mean(x) for Welch; the mean difference for the paired test */
  difference: number;
  lower: number;
  upper: number;
}

function fromStatistic(difference: number, se: number, df: number, confidence: number): TTestResult {
  if (!(se > 0) || !(df > 0)) {
    // no spread: the difference is exact (p = 1 when it is 0, else 0)
    return { t: null, df: null, p_value: difference === 0 ? 1 : 0, difference, lower: difference, upper: difference };
  }
  const t = difference / se;
  const p_value = Math.min(1, 2 * studentTCdf(-Math.abs(t), df));
  const q = studentTQuantile(1 - (1 - confidence) / 2, df);
  return { t, df, p_value, difference, lower: difference - q * se, upper: difference + q * se };
}

/**
 * Welch's unequal-variance t-test of mean(y) - mean(x) from summaries alone (so it works on aggregated data),
 * with Welch-Satterthwaite degrees of freedom and the Student t CDF from jStat. Needs n >= 2 on both sides.
 */
export function welchTTest(x: SampleSummary, y: SampleSummary, options: { confidence?: number } = {}): TTestResult {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  assertConfidence(confidence);
  if (x.n < 2 || y.n < 2) throw new RangeError(`Welch's t-test needs n >= 2 on both sides, got ${x.n} and ${y.n}`);
  const vx = x.variance / x.n;
  const vy = y.variance / y.n;
  const se = Math.sqrt(vx + vy);
  const df = (vx + vy) ** 2 / ((vx * vx) / (x.n - 1) + (vy * vy) / (y.n - 1));
  return fromStatistic(y.mean - x.mean, se, Number.isFinite(df) ? df : x.n + y.n - 2, confidence);
}

/** One-sample t-test of mean = 0 on the per-pair differences (the paired t-test), from their summary. */
export function pairedTTest(differences: SampleSummary, options: { confidence?: number } = {}): TTestResult {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  assertConfidence(confidence);
  if (differences.n < 2) throw new RangeError(`the paired t-test needs n >= 2, got ${differences.n}`);
  return fromStatistic(differences.mean, Math.sqrt(differences.variance / differences.n), differences.n - 1, confidence);
}
