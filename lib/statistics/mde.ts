import { normalQuantile } from './distributions.js';

export interface MdeInput {
  /** paired cases (paired design) or cases per run (unpaired) */
  n: number;
  /**
   * share of pairs that disagree, (b + c) / n. Given: the paired McNemar design (Connor 1987). Omitted: the
   * unpaired two-proportion design.
   */
  discordance?: number;
  /** unpaired only: the baseline pass rate (default 0.5, the worst case) */
  baselineRate?: number;
  /** two-sided; default 0.05 */
  alpha?: number;
  /** default 0.8 */
  power?: number;
}

/** Smallest x in (0, hi] with f(x) true (f monotone false..true), by bisection. */
function solve(hi: number, f: (x: number) => boolean): number {
  let lo = 0;
  if (!f(hi)) return Number.NaN;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Minimum detectable effect: the smallest true pass-rate change (a fraction; 0.05 = 5 points) that a
 * two-sided test at `alpha` detects with probability `power`, by the normal approximations:
 * - paired (McNemar, Connor 1987, Biometrics 43:207): n = (z_a sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2, with psi
 *   the discordance; solved for d. A change of d needs at least a share d of discordant pairs, so psi is taken as
 *   max(observed discordance, d): identical runs (discordance 0) get about (z_a + z_b)^2 / n, not 0.
 * - unpaired (two proportions, equal n, Fleiss et al. 2003 eq. 4.14 without continuity correction):
 *   n = (z_a sqrt(2 pbar qbar) + z_b sqrt(p1 q1 + p2 q2))^2 / d^2 with p2 = p1 - d; solved for d.
 * Returns NaN when n < 1 or no change up to 100 points is detectable.
 */
export function minimumDetectableEffect(input: MdeInput): number {
  const { n } = input;
  const alpha = input.alpha ?? 0.05;
  const power = input.power ?? 0.8;
  if (!(n >= 1)) return Number.NaN;
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  if (input.discordance !== undefined) {
    const observed = Math.min(1, Math.max(0, input.discordance));
    return solve(1, (d) => {
      // a change of d needs at least a share d of discordant pairs
      const psi = Math.max(observed, d);
      const needed = (za * Math.sqrt(psi) + zb * Math.sqrt(Math.max(0, psi - d * d))) ** 2 / (d * d);
      return needed <= n;
    });
  }
  const p1 = input.baselineRate ?? 0.5;
  const needed = (d: number): number => {
    const p2 = p1 >= 0.5 ? p1 - d : p1 + d;
    const pbar = (p1 + p2) / 2;
    return (za * Math.sqrt(2 * pbar * (1 - pbar)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (d * d);
  };
  return solve(Math.max(p1, 1 - p1), (d) => needed(d) <= n);
}
