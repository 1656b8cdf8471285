import type { Random } from './random.js';

/**
 * Rounds non-negative `quotas` to integers summing exactly to `total` (largest-remainder / Hamilton method):
 * each gets the floor of its quota, then the units left go to the largest fractional parts (ties: lower index).
 * `caps` bound each share (a stratum cannot give more cases than it has); units a capped share cannot take go on
 * down the remainder order.
 */
export function largestRemainder(quotas: readonly number[], total: number, caps?: readonly number[]): number[] {
  if (!Number.isInteger(total) || total < 0) throw new RangeError(`total must be a non-negative integer, got ${total}`);
  const shares = quotas.map((q, i) => Math.min(Math.floor(q + 1e-9), caps?.[i] ?? Infinity));
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = quotas.map((q, i) => ({ i, r: q - Math.floor(q + 1e-9) })).sort((a, b) => b.r - a.r || a.i - b.i);
  while (left > 0) {
    let gave = false;
    for (const { i } of order) {
      if (left === 0) break;
      if (shares[i]! < (caps?.[i] ?? Infinity)) {
        shares[i]!++;
        left--;
        gave = true;
      }
    }
    if (!gave) throw new RangeError(`cannot place ${total} units within the caps`);
  }
  return shares;
}

/**
 * How many of `size` sampled cases each stratum gets. `proportional`: quota N_h n / N; `equal`: n / H per stratum,
 * a stratum smaller than its share gives all its cases and the rest is shared equally by the others (water
 * filling). Both rounded by largest remainder: the result sums to exactly min(size, N) and no stratum gets more
 * than it has.
 */
export function allocateSample(populations: readonly number[], size: number, allocation: 'proportional' | 'equal'): number[] {
  const total = populations.reduce((a, b) => a + b, 0);
  const n = Math.min(size, total);
  if (n === 0) return populations.map(() => 0);
  if (allocation === 'proportional')
    return largestRemainder(
      populations.map((p) => (p * n) / total),
      n,
      populations,
    );
  const quotas = populations.map(() => 0);
  let open = populations.map((p, i) => ({ p, i })).filter((s) => s.p > 0);
  let left = n;
  // water filling: strata smaller than an equal share are taken whole, the others share what remains
  for (;;) {
    const share = left / open.length;
    const small = open.filter((s) => s.p <= share);
    if (small.length === 0) {
      for (const s of open) quotas[s.i] = share;
      break;
    }
    for (const s of small) {
      quotas[s.i] = s.p;
      left -= s.p;
    }
    open = open.filter((s) => s.p > share);
    if (open.length === 0) break;
  }
  return largestRemainder(quotas, n, populations);
}

/** `k` distinct indices of 0..n-1 drawn uniformly (partial Fisher-Yates), sorted ascending. */
export function sampleIndices(n: number, k: number, random: Random): number[] {
  if (k > n) throw new RangeError(`cannot draw ${k} of ${n}`);
  const pool = new Int32Array(n);
  for (let i = 0; i < n; i++) pool[i] = i;
  for (let i = 0; i < k; i++) {
    const j = i + random.int(n - i);
    const t = pool[i]!;
    pool[i] = pool[j]!;
    pool[j] = t;
  }
  return Array.from(pool.subarray(0, k)).sort((a, b) => a - b);
}
