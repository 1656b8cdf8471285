import { binomialCdf, binomialPmf } from './distributions.js';

export interface McNemarResult {
  /** pairs that passed in A and failed in B */
  b: number;
  /** pairs that failed in A and passed in B */
  c: number;
  /** two-sided exact p-value: 2 * P(X <= min(b, c)), X ~ Binomial(b + c, 1/2), capped at 1 */
  p_value: number;
  /** mid-p variant: the exact p-value minus P(X = min(b, c)); less conservative (Fagerland et al. 2013) */
  mid_p_value: number;
}

/**
 * Exact McNemar test of paired pass/fail outcomes: under "no change" each discordant pair is equally likely
 * to go either way, so b ~ Binomial(b + c, 1/2). Concordant pairs carry no information about the change.
 * No discordant pairs: p = 1.
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError(`need counts >= 0, got b=${b} c=${c}`);
  const n = b + c;
  if (n === 0) return { b, c, p_value: 1, mid_p_value: 1 };
  const k = Math.min(b, c);
  const tail = binomialCdf(k, n, 0.5);
  const p_value = Math.min(1, 2 * tail);
  const mid_p_value = Math.min(1, 2 * tail - binomialPmf(k, n, 0.5));
  return { b, c, p_value, mid_p_value };
}
