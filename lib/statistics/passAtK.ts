/**
 * Unbiased estimators over n trials of one task with c successes (Chen et al. 2021 for pass@k; tau-bench's pass^k),
 * for 1 <= k <= n:
 * - pass@k = 1 - C(n-c, k) / C(n, k): the chance that at least one of k trials drawn without replacement passes;
 * - pass^k = C(c, k) / C(n, k): the chance that all k of them pass (consistency).
 * Computed as products of ratios (no factorials), exact for any n this platform runs. For k = 1 both are c / n.
 * pass^k <= c/n <= pass@k always holds.
 */
export function passAtK(n: number, c: number, k: number): number {
  check(n, c, k);
  if (n - c < k) return 1;
  let none = 1;
  for (let i = 0; i < k; i++) none *= (n - c - i) / (n - i);
  return 1 - none;
}

export function passHatK(n: number, c: number, k: number): number {
  check(n, c, k);
  if (c < k) return 0;
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return all;
}

function check(n: number, c: number, k: number): void {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 1 || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`pass@k needs integers 0 <= c <= n and 1 <= k <= n (got n=${n}, c=${c}, k=${k})`);
  }
}
