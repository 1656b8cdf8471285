import { normalQuantile } from './distributions.js';

export interface SampleSizeInput {
  /** the pass-rate change to detect, a fraction in (0, 1) (0.05 = 5 points) */
  effect: number;
  /** expected share of discordant pairs: given, the paired McNemar design; omitted, the unpaired design */
  discordance?: number;
  /** unpaired only: the baseline pass rate (default 0.5, the worst case) */
  baselineRate?: number;
  /** two-sided; default 0.05 */
  alpha?: number;
  /** default 0.8 */
  power?: number;
}

/**
 * The number of cases (paired) or cases per run (unpaired) a two-sided test at `alpha` needs to detect a pass-rate
 * change of `effect` with probability `power`: the same formulas `minimumDetectableEffect` inverts (Connor 1987 for
 * the paired design with psi = max(discordance, effect); Fleiss et al. 2003 eq. 4.14 unpaired), rounded up, so
 * minimumDetectableEffect({ n: minimumSampleSize(x) }) <= x.effect. NaN when the effect cannot exist (p2 outside [0, 1]).
 */
export function minimumSampleSize(input: SampleSizeInput): number {
  const { effect: d } = input;
  if (!(d > 0 && d < 1)) throw new RangeError(`effect must be in (0, 1), got ${d}`);
  const alpha = input.alpha ?? 0.05;
  const power = input.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  if (input.discordance !== undefined) {
    const psi = Math.max(Math.min(1, Math.max(0, input.discordance)), d);
    return Math.ceil((za * Math.sqrt(psi) + zb * Math.sqrt(Math.max(0, psi - d * d))) ** 2 / (d * d) - 1e-9);
  }
  const p1 = input.baselineRate ?? 0.5;
  const p2 = p1 >= 0.5 ? p1 - d : p1 + d;
  if (p2 < 0 || p2 > 1) return Number.NaN;
  const pbar = (p1 + p2) / 2;
  return Math.ceil((za * Math.sqrt(2 * pbar * (1 - pbar)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (d * d) - 1e-9);
}

/**
 * Pairs a two-sided paired t-test at `alpha` needs to detect a standardized mean difference `effectSize` (Cohen's
 * d_z = mean difference / sd of the differences) with probability `power`: the normal approximation
 * n = ((z_a + z_b) / d)^2 plus z_a^2 / 2 for the t distribution (Guenther 1981), rounded up.
 */
export function minimumPairedMeanSampleSize(input: { effectSize: number; alpha?: number; power?: number }): number {
  const d = input.effectSize;
  if (!(d > 0)) throw new RangeError(`effectSize must be > 0, got ${d}`);
  const alpha = input.alpha ?? 0.05;
  const power = input.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  return Math.ceil(((za + zb) / d) ** 2 + (za * za) / 2);
}
