import jStat from 'jstat';

/** Standard normal quantile. */
export function normalQuantile(p: number): number {
  return jStat.normal.inv(p, 0, 1);
}

/** Standard normal CDF. */
export function normalCdf(x: number): number {
  return jStat.normal.cdf(x, 0, 1);
}

/** Student t CDF (jStat's incomplete beta; relative error under 1e-5 against scipy up to df = 1e6). */
export function studentTCdf(t: number, df: number): number {
  if (!Number.isFinite(df) || df > 1e7) return normalCdf(t);
  return jStat.studentt.cdf(t, df);
}

/** Student t quantile. */
export function studentTQuantile(p: number, df: number): number {
  if (!Number.isFinite(df) || df > 1e7) return normalQuantile(p);
  return jStat.studentt.inv(p, df);
}

/** ln Γ(x) */
export function logGamma(x: number): number {
  return jStat.gammaln(x);
}

/** ln C(n, k) */
export function logChoose(n: number, k: number): number {
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
}

/**
 * P(X <= k) for X ~ Binomial(n, p), summed exactly in log space from k downwards (stops once terms fall below
 * 1e-17 of the sum; the upper side by complement), so it stays accurate for n in the hundreds of thousands.
 */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  // sum the short side: below the mean the terms fall monotonically as i decreases
  if (k > n * p) return 1 - binomialCdf(n - k - 1, n, 1 - p);
  const logTerm = logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p);
  // sum_{i<=k} pmf(i) = pmf(k) * sum_{i<=k} pmf(i)/pmf(k); recurrence pmf(i-1)/pmf(i) = i/(n-i+1) * (1-p)/p
  const ratio = (1 - p) / p;
  let relative = 1;
  let sum = 1;
  for (let i = k; i > 0; i--) {
    relative *= (i / (n - i + 1)) * ratio;
    sum += relative;
    if (relative < sum * 1e-17) break;
  }
  return Math.min(1, Math.exp(logTerm + Math.log(sum)));
}

/** P(X = k) for X ~ Binomial(n, p). */
export function binomialPmf(k: number, n: number, p: number): number {
  if (k < 0 || k > n) return 0;
  if (p <= 0) return k === 0 ? 1 : 0;
  if (p >= 1) return k === n ? 1 : 0;
  return Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
}
