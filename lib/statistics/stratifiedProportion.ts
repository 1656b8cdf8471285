import { normalQuantile } from './distributions.js';
import { assertConfidence, DEFAULT_CONFIDENCE, type EstimateInterval } from './interval.js';

/** One stratum: its cases in the population, the sampled cases that were scored, and how many of those passed. */
export interface StratumCount {
  population: number;
  sampled: number;
  passed: number;
}

export interface StratifiedProportion extends EstimateInterval {
  /** Kish effective sample size p(1-p)/V the interval uses (Infinity when every stratum was taken whole) */
  effective_n: number;
  /** share of the population in strata with no scored sampled case (left out; the weights are renormalised) */
  unsampled_share: number;
}

/**
 * The population pass rate estimated from a (stratified) random sample without replacement.
 *
 * Estimator: p = sum_h W_h p_h with W_h = N_h / N (population shares) and p_h = passed_h / n_h. Variance:
 * V = sum_h W_h^2 (1 - n_h / N_h) p_h (1 - p_h) / (n_h - 1) (finite-population correction; n_h - 1 is the
 * unbiased sample variance, 1 when n_h = 1). Interval: the Wilson score interval at p with the Kish effective
 * sample size n_eff = p (1 - p) / V, so it stays inside [0, 1] and behaves near 0 and 1. When V is 0 while some
 * stratum was only partly sampled (every sampled stratum all-pass or all-fail), n_eff falls back to the
 * simple-random-sample value n (N - 1) / (N - n). A whole population (n_h = N_h everywhere) gives the exact
 * rate with a zero-width interval. A simple random sample is the one-stratum case: Wilson with n (N - 1) / (N - n).
 */
export function stratifiedProportion(strata: readonly StratumCount[], confidence = DEFAULT_CONFIDENCE): StratifiedProportion {
  assertConfidence(confidence);
  for (const s of strata) {
    if (![s.population, s.sampled, s.passed].every(Number.isInteger) || s.passed < 0 || s.passed > s.sampled || s.sampled > s.population)
      throw new RangeError(`need integers 0 <= passed <= sampled <= population, got ${JSON.stringify(s)}`);
  }
  const total = strata.reduce((a, s) => a + s.population, 0);
  const used = strata.filter((s) => s.sampled > 0);
  const covered = used.reduce((a, s) => a + s.population, 0);
  const unsampledShare = total === 0 ? 0 : 1 - covered / total;
  if (covered === 0) return { estimate: Number.NaN, lower: 0, upper: 1, effective_n: 0, unsampled_share: unsampledShare };
  let p = 0;
  let v = 0;
  let n = 0;
  let whole = true;
  for (const s of used) {
    const w = s.population / covered;
    const ph = s.passed / s.sampled;
    const f = s.sampled / s.population;
    if (f < 1) whole = false;
    p += w * ph;
    v += (w * w * (1 - f) * ph * (1 - ph)) / Math.max(s.sampled - 1, 1);
    n += s.sampled;
  }
  if (whole) return { estimate: p, lower: p, upper: p, effective_n: Infinity, unsampled_share: unsampledShare };
  const nEff = v > 0 && p > 0 && p < 1 ? (p * (1 - p)) / v : (n * (covered - 1)) / Math.max(covered - n, 1);
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const z2 = z * z;
  const centre = (p + z2 / (2 * nEff)) / (1 + z2 / nEff);
  const half = (z / (1 + z2 / nEff)) * Math.sqrt((p * (1 - p)) / nEff + z2 / (4 * nEff * nEff));
  return {
    estimate: p,
    lower: Math.max(0, Math.min(p, centre - half)),
    upper: Math.min(1, Math.max(p, centre + half)),
    effective_n: nEff,
    unsampled_share: unsampledShare,
  };
}
