import { describe, expect, it } from 'vitest';
import { percentileInterval, quantileOfSorted } from './percentile.js';

const oneTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe('percentileInterval (order-statistic interval)', () => {
  // Independently computed: scipy.stats.quantile_test(x, q=np.quantile(x, p), p=p).confidence_interval(0.95) on
  // x = 1..n (scipy returns nan for an unbounded side; we return the sample maximum). Estimates: numpy.quantile.
  it.each([
    [50, 0.5, 25.5, 18, 33],
    [50, 0.95, 47.55, 44, 50],
    [20, 0.5, 10.5, 6, 15],
    [1000, 0.99, 990.01, 983, 997],
    [10, 0.9, 9.1, 7, 10],
  ])('n=%i q=%f', (n, q, estimate, lower, upper) => {
    const r = percentileInterval(oneTo(n).reverse(), q);
    expect(r.estimate).toBeCloseTo(estimate, 10);
    expect({ lower: r.lower, upper: r.upper }).toEqual({ lower, upper });
  });

  it('does not modify its input and handles empty input', () => {
    const values = [3, 1, 2];
    percentileInterval(values, 0.5);
    expect(values).toEqual([3, 1, 2]);
    expect(percentileInterval([], 0.5).estimate).toBeNaN();
  });

  it('is fast enough for a 400k-case run', () => {
    const values = Float64Array.from({ length: 400_000 }, (_, i) => (i * 7919) % 400_000);
    const started = performance.now();
    const r = percentileInterval(values, 0.99);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(r.lower).toBeLessThanOrEqual(r.estimate);
    expect(r.upper).toBeGreaterThanOrEqual(r.estimate);
  });

  it('quantileOfSorted: numpy linear interpolation', () => {
    expect(quantileOfSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileOfSorted([1, 2, 3, 4], 1)).toBe(4);
    expect(quantileOfSorted([7], 0.3)).toBe(7);
  });
});
