import { studentTQuantile } from './distributions.js';
import { assertConfidence, DEFAULT_CONFIDENCE, type EstimateInterval } from './interval.js';
import type { SampleSummary } from './summary.js';

/** Student t interval for a mean from its summary (n < 2: the mean with no width; n = 0: NaN). */
export function meanInterval(summary: SampleSummary, confidence = DEFAULT_CONFIDENCE): EstimateInterval {
  assertConfidence(confidence);
  const { n, mean, variance } = summary;
  if (n === 0) return { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN };
  if (n < 2) return { estimate: mean, lower: mean, upper: mean };
  const half = studentTQuantile(1 - (1 - confidence) / 2, n - 1) * Math.sqrt(variance / n);
  return { estimate: mean, lower: mean - half, upper: mean + half };
}

/**
 * Interval for a total (e.g. the cost of a run, or of the same cases rerun): n times the mean interval, the
 * lower bound floored at 0 for non-negative quantities when `nonNegative` is set. n = 0 gives 0 with no width.
 */
export function totalInterval(summary: SampleSummary, options: { confidence?: number; nonNegative?: boolean } = {}): EstimateInterval {
  if (summary.n === 0) return { estimate: 0, lower: 0, upper: 0 };
  const m = meanInterval(summary, options.confidence ?? DEFAULT_CONFIDENCE);
  const lower = summary.n * m.lower;
  return { estimate: summary.n * m.estimate, lower: options.nonNegative ? Math.max(0, lower) : lower, upper: summary.n * m.upper };
}
