import { normalQuantile } from './distributions.js';
import { assertConfidence, DEFAULT_CONFIDENCE, type EstimateInterval } from './interval.js';

/**
 * Wilson score interval for a binomial proportion (Wilson 1927; Newcombe 1998, Stat Med 17:857, method 3).
 * Unlike the Wald interval it stays inside [0, 1] and keeps its coverage near 0 and 1 and for small n.
 * n = 0 gives estimate NaN and the uninformative [0, 1].
 */
export function wilsonInterval(successes: number, n: number, confidence = DEFAULT_CONFIDENCE): EstimateInterval {
  assertConfidence(confidence);
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || n < 0 || successes > n) {
    throw new RangeError(`need integers 0 <= successes <= n, got ${successes} of ${n}`);
  }
  if (n === 0) return { estimate: Number.NaN, lower: 0, upper: 1 };
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    estimate: p,
    lower: successes === 0 ? 0 : Math.max(0, centre - half),
    upper: successes === n ? 1 : Math.min(1, centre + half),
  };
}
