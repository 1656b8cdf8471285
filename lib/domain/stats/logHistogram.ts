/**
 * A mergeable, subtractable histogram with bounded relative error (DDSketch's logarithmic mapping, without
 * collapsing): a positive value x goes to bucket i = ceil(log_γ x), γ = (1 + α) / (1 − α), which covers
 * (γ^(i−1), γ^i]; the bucket reports 2γ^i / (γ + 1), within α·x of every value it holds. Zero (and any value
 * that is not a positive finite number) is counted apart and reported as 0.
 *
 * Error bound: `quantile(q)` returns v with |v − x| ≤ α·x (α = 1%), where x is the exact lower-rank quantile
 * sorted[floor(q·(n − 1))] of the values counted. Buckets are integer counts keyed by an integer index, so adding
 * and subtracting the same value is exact in any order. Size: one bucket per 2% of range actually used
 * (1 ms to 100 s is at most ~580 buckets).
 */
export const RELATIVE_ACCURACY = 0.01;
const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
const INV_LN_GAMMA = 1 / Math.log(GAMMA);
const BUCKET_VALUE_FACTOR = 2 / (GAMMA + 1);

/** The JSON form: `zero` counts zeros, `buckets` maps the bucket index (as a string) to its count. */
export interface LogHistogramState {
  zero: number;
  buckets: Record<string, number>;
}

/** The bucket index of a positive finite value. */
export function bucketIndex(value: number): number {
  return Math.ceil(Math.log(value) * INV_LN_GAMMA);
}

/** The value a bucket reports. */
export function bucketValue(index: number): number {
  return Math.exp(index / INV_LN_GAMMA) * BUCKET_VALUE_FACTOR;
}

function isPositiveFinite(value: number): boolean {
  return value > 0 && Number.isFinite(value);
}

/** Mutable working form (sparse map of integer counts); counts that reach 0 are removed. */
export class LogHistogram {
  private constructor(
    private zero: number,
    private readonly buckets: Map<number, number>,
  ) {}

  static empty(): LogHistogram {
    return new LogHistogram(0, new Map());
  }

  static fromState(state: LogHistogramState): LogHistogram {
    const buckets = new Map<number, number>();
    for (const [key, count] of Object.entries(state.buckets)) if (count !== 0) buckets.set(Number(key), count);
    return new LogHistogram(state.zero, buckets);
  }

  toState(): LogHistogramState {
    const sorted = [...this.buckets.keys()].sort((a, b) => a - b);
    return { zero: this.zero, buckets: Object.fromEntries(sorted.map((index) => [String(index), this.buckets.get(index) ?? 0])) };
  }

  /** Adds (`sign` 1) or removes (`sign` −1) one value. */
  add(value: number, sign: 1 | -1 = 1): void {
    if (!isPositiveFinite(value)) {
      this.zero += sign;
      return;
    }
    const index = bucketIndex(value);
    const count = (this.buckets.get(index) ?? 0) + sign;
    if (count === 0) this.buckets.delete(index);
    else this.buckets.set(index, count);
  }

  /** Adds (or with `sign` −1 subtracts) every count of another histogram. */
  merge(other: LogHistogram, sign: 1 | -1 = 1): void {
    this.zero += sign * other.zero;
    for (const [index, count] of other.buckets) {
      const next = (this.buckets.get(index) ?? 0) + sign * count;
      if (next === 0) this.buckets.delete(index);
      else this.buckets.set(index, next);
    }
  }

  /** How many values are counted (negative buckets, which only inconsistent subtraction makes, are ignored). */
  count(): number {
    let total = Math.max(0, this.zero);
    for (const count of this.buckets.values()) if (count > 0) total += count;
    return total;
  }

  /**
   * The estimates of several quantiles (each in [0, 1]) in one pass; null each when the histogram is empty. Quantile q
   * is the bucket value of the lower-rank order statistic sorted[floor(q·(n − 1))] (the platform's one definition of a
   * latency percentile: lib/domain/stats/README.md).
   */
  quantiles(qs: readonly number[]): (number | null)[] {
    const n = this.count();
    if (n === 0) return qs.map(() => null);
    return this.valuesAtRanks(qs.map((q) => Math.floor(Math.min(1, Math.max(0, q)) * (n - 1))));
  }

  /**
   * The bucket values of the order statistics at the given 0-based ranks (sorted[rank] at the histogram's
   * resolution; a rank past the end gives the largest bucket); empty histogram: an empty list.
   */
  valuesAtRanks(ranks: readonly number[]): number[] {
    if (this.count() === 0) return [];
    const sorted = [...this.buckets.entries()].filter(([, count]) => count > 0).sort((a, b) => a[0] - b[0]);
    return ranks.map((rank) => {
      let cumulative = Math.max(0, this.zero);
      if (cumulative > rank) return 0;
      for (const [index, count] of sorted) {
        cumulative += count;
        if (cumulative > rank) return bucketValue(index);
      }
      const last = sorted[sorted.length - 1];
      return last ? bucketValue(last[0]) : 0;
    });
  }

  quantile(q: number): number | null {
    return this.quantiles([q])[0] ?? null;
  }
}
