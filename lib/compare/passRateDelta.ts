import type { PassRateDelta, Rate } from '../domain/index.js';
import { mcnemarExact, pairedProportionDifference, wilsonInterval, type PairedTable } from '../statistics/index.js';

/** A 2x2 paired table being counted: [both passed, baseline only, candidate only, both failed]. */
export type Counts = [number, number, number, number];

export const emptyCounts = (): Counts => [0, 0, 0, 0];

/** Adds one pair to the table. */
export function countPair(counts: Counts, baselinePassed: boolean, candidatePassed: boolean): void {
  counts[baselinePassed ? (candidatePassed ? 0 : 1) : candidatePassed ? 2 : 3]++;
}

export function tableOf(counts: Counts): PairedTable {
  return { both_passed: counts[0], a_only: counts[1], b_only: counts[2], both_failed: counts[3] };
}

export function rateOf(passed: number, n: number, confidence: number): Rate {
  if (n === 0) return { passed, n, rate: null, lower: null, upper: null };
  const w = wilsonInterval(passed, n, confidence);
  return { passed, n, rate: w.estimate, lower: w.lower, upper: w.upper };
}

/**
 * The paired pass-rate change of one table: Wilson per side, Newcombe's paired interval for the difference,
 * exact McNemar (with mid-p) on the discordant pairs. `significant` compares `pForSignificance` (the Holm-adjusted
 * value for family members; default the raw p) with alpha.
 */
export function passRateDelta(counts: Counts, options: { confidence: number; alpha: number; pForSignificance?: number }): PassRateDelta {
  const [e, f, g, h] = counts;
  const n = e + f + g + h;
  const test = mcnemarExact(f, g);
  const diff = n === 0 ? undefined : pairedProportionDifference(tableOf(counts), options.confidence);
  return {
    paired_cases: n,
    baseline: rateOf(e + f, n, options.confidence),
    candidate: rateOf(e + g, n, options.confidence),
    difference: diff ? diff.estimate : null,
    lower: diff ? diff.lower : null,
    upper: diff ? diff.upper : null,
    newly_failing: f,
    newly_passing: g,
    p_value: test.p_value,
    mid_p_value: test.mid_p_value,
    test: 'exact McNemar',
    significant: (options.pForSignificance ?? test.p_value) < options.alpha,
  };
}
