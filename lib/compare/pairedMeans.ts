import type { PassRateDelta, Rate } from '../domain/index.js';
import { mcnemarExact, meanInterval, pairedTTest, RunningSummary, type SampleSummary } from '../statistics/index.js';
import { countPair, emptyCounts, passRateDelta, type Counts } from './passRateDelta.js';

/** The test of a paired change between per-case trial means that are not all 0 or 1. */
export const TRIAL_MEANS_TEST = 'paired t on per-case trial means';

/**
 * Pairs of per-case values in [0, 1] being counted (a case's pass fraction over its scored trials, in the baseline
 * and in the candidate). While every value is exactly 0 or 1 (always so with one trial per run, and for cases whose
 * trials all agree) the pairs also fill the 2x2 table of the exact McNemar test, and `delta` gives exactly what
 * `passRateDelta` gives; once a fractional mean is seen, `delta` switches to the paired t-test on the differences.
 */
export class PairedMeans {
  readonly counts: Counts = emptyCounts();
  binary = true;
  readonly baseline = new RunningSummary();
  readonly candidate = new RunningSummary();
  readonly differences = new RunningSummary();
  /** pairs whose candidate mean is below / above the baseline's */
  down = 0;
  up = 0;

  add(a: number, b: number): void {
    if ((a === 0 || a === 1) && (b === 0 || b === 1)) countPair(this.counts, a === 1, b === 1);
    else this.binary = false;
    this.baseline.add(a);
    this.candidate.add(b);
    this.differences.add(b - a);
    if (b < a) this.down++;
    else if (b > a) this.up++;
  }

  get n(): number {
    return this.differences.summary.n;
  }

  /**
   * The paired change. Binary: `passRateDelta` on the 2x2 table (Wilson per side, Newcombe interval, exact McNemar).
   * Fractional: the mean per side with a t interval (clamped to [0, 1]), the mean difference with the paired t
   * interval and p-value (`pairedMeansPValue`: the exact sign test when the differences have no spread) (`test` = TRIAL_MEANS_TEST, `mid_p_value` = `p_value`), `newly_failing` / `newly_passing` =
   * the cases whose mean fell / rose. `pForSignificance`: see passRateDelta.
   */
  delta(options: { confidence: number; alpha: number; pForSignificance?: number }): PassRateDelta {
    if (this.binary) return passRateDelta(this.counts, options);
    const n = this.n;
    const t = n < 2 ? null : pairedTTest(this.differences.summary, { confidence: options.confidence });
    const p = pairedMeansPValue(this.differences.summary, this.down, this.up);
    const d = this.differences.summary.mean;
    return {
      paired_cases: n,
      baseline: meanRate(this.baseline, options.confidence),
      candidate: meanRate(this.candidate, options.confidence),
      difference: d,
      lower: t ? Math.max(-1, t.lower) : d,
      upper: t ? Math.min(1, t.upper) : d,
      newly_failing: this.down,
      newly_passing: this.up,
      p_value: p,
      mid_p_value: p,
      test: TRIAL_MEANS_TEST,
      significant: (options.pForSignificance ?? p) < options.alpha,
    };
  }
}

/**
 * A rate from fractional per-case values in [0, 1] (pass fractions over trials): their mean with a t interval clamped
 * to [0, 1]; `passed` is the sum of the fractions. (Values all 0 or 1 take Wilson: `rateOf`.)
 */
export function meanRate(values: RunningSummary, confidence: number): Rate {
  const { n, mean } = values.summary;
  if (n === 0) return { passed: 0, n, rate: null, lower: null, upper: null };
  const interval = meanInterval(values.summary, confidence);
  return { passed: mean * n, n, rate: mean, lower: Math.max(0, interval.lower), upper: Math.min(1, interval.upper) };
}

/**
 * The two-sided p-value of a paired change of per-case means: the paired t-test on the differences; when they have
 * no spread (every case moved by the same amount) the t statistic is infinite and says nothing about how many cases
 * back it, so the exact sign test on the cases that moved down / up (McNemar's binomial) decides instead. Fewer than
 * 2 pairs: 1.
 */
export function pairedMeansPValue(differences: SampleSummary, down: number, up: number): number {
  if (differences.n < 2) return 1;
  if (!(differences.variance > 0)) return mcnemarExact(down, up).p_value;
  return pairedTTest(differences).p_value;
}
