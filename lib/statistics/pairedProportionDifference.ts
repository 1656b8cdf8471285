import { wilsonInterval } from './wilson.js';
import { DEFAULT_CONFIDENCE, type EstimateInterval } from './interval.js';

/** The paired 2x2 table of two runs' outcomes on the same cases. */
export interface PairedTable {
  /** passed in both */
  both_passed: number;
  /** passed in A, failed in B */
  a_only: number;
  /** failed in A, passed in B */
  b_only: number;
  /** failed in both */
  both_failed: number;
}

/**
 * Confidence interval for the difference of two paired proportions, pB - pA: Newcombe's hybrid score method 10
 * (Newcombe 1998, Stat Med 17:2635; worked in Altman et al., Statistics with Confidence, 2000, ch. 6). It squares
 * and adds the two Wilson intervals' half-widths, corrected by the phi correlation of the paired outcomes, with
 * the numerator e*h - f*g shrunk by n/2 towards 0 (and set to 0 in between) as the paper specifies.
 * Stays inside [-1, 1] and behaves at 0 discordant pairs. n = 0 gives NaN and [-1, 1].
 */
export function pairedProportionDifference(table: PairedTable, confidence = DEFAULT_CONFIDENCE): EstimateInterval {
  const { both_passed: e, a_only: f, b_only: g, both_failed: h } = table;
  const n = e + f + g + h;
  if (n === 0) return { estimate: Number.NaN, lower: -1, upper: 1 };
  const aPassed = e + f;
  const bPassed = e + g;
  const pa = aPassed / n;
  const pb = bPassed / n;
  const a = wilsonInterval(aPassed, n, confidence);
  const b = wilsonInterval(bPassed, n, confidence);
  const denominator = (e + f) * (g + h) * (e + g) * (f + h);
  const cross = e * h - f * g;
  const numerator = cross > n / 2 ? cross - n / 2 : cross >= 0 ? 0 : cross;
  const phi = denominator === 0 ? 0 : numerator / Math.sqrt(denominator);
  const estimate = pb - pa;
  // lower bound of pB - pA: pB low (pb - b.lower) and pA high (a.upper - pa)
  const dl = Math.sqrt(Math.max(0, (pb - b.lower) ** 2 - 2 * phi * (pb - b.lower) * (a.upper - pa) + (a.upper - pa) ** 2));
  const du = Math.sqrt(Math.max(0, (b.upper - pb) ** 2 - 2 * phi * (b.upper - pb) * (pa - a.lower) + (pa - a.lower) ** 2));
  return { estimate, lower: Math.max(-1, estimate - dl), upper: Math.min(1, estimate + du) };
}
