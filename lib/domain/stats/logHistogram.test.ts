import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LogHistogram, RELATIVE_ACCURACY, bucketIndex, bucketValue } from './logHistogram.js';

const QUANTILES = [0, 0.5, 0.95, 0.99, 1];

/** The exact lower-rank quantile the bound is stated against. */
function exactQuantile(sorted: readonly number[], q: number): number {
  return sorted[Math.floor(q * (sorted.length - 1))] as number;
}

function histogramOf(values: readonly number[]): LogHistogram {
  const histogram = LogHistogram.empty();
  for (const value of values) histogram.add(value);
  return histogram;
}

function expectWithinBound(histogram: LogHistogram, values: readonly number[]): void {
  const sorted = [...values].sort((a, b) => a - b);
  const estimates = histogram.quantiles(QUANTILES);
  QUANTILES.forEach((q, i) => {
    const exact = exactQuantile(sorted, q);
    const estimate = estimates[i] as number;
    // 1e-12 slack for the floating-point rounding of log/exp at bucket edges
    expect(Math.abs(estimate - exact)).toBeLessThanOrEqual(exact * (RELATIVE_ACCURACY + 1e-12));
  });
}

const latency = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 60_000 }),
  fc.double({ min: 1e-6, max: 1e7, noNaN: true, noDefaultInfinity: true }),
);

describe('LogHistogram', () => {
  it('reports null quantiles and count 0 when empty', () => {
    expect(LogHistogram.empty().quantiles([0.5, 0.99])).toEqual([null, null]);
    expect(LogHistogram.empty().count()).toBe(0);
  });

  it.each([
    { value: 0, expected: 0 },
    { value: -5, expected: 0 },
    { value: Number.NaN, expected: 0 },
    { value: Number.POSITIVE_INFINITY, expected: 0 },
    { value: 1, expected: bucketValue(0) },
    { value: 250, expected: bucketValue(bucketIndex(250)) },
  ])('counts $value and reports $expected', ({ value, expected }) => {
    expect(histogramOf([value]).quantiles([0.5])).toEqual([expected]);
  });

  it('bucket values are within the relative accuracy of every value they hold', () => {
    for (const value of [1e-9, 0.003, 1, 1.5, 99.99, 100, 101, 12_345.678, 3.6e6]) {
      expect(Math.abs(bucketValue(bucketIndex(value)) - value)).toBeLessThanOrEqual(value * (RELATIVE_ACCURACY + 1e-12));
    }
  });

  it('p0/p50/p95/p99/p100 are within 1% of the exact sorted percentiles on random data', () => {
    fc.assert(
      fc.property(fc.array(latency, { minLength: 1, maxLength: 400 }), (values) => {
        expectWithinBound(histogramOf(values), values);
      }),
      { numRuns: 200 },
    );
  });

  it('stays within the bound after subtracting values, and subtraction restores the exact state', () => {
    fc.assert(
      fc.property(fc.array(latency, { minLength: 1, maxLength: 200 }), fc.array(latency, { maxLength: 200 }), (kept, removed) => {
        const histogram = histogramOf([...removed, ...kept]);
        for (const value of removed) histogram.add(value, -1);
        expect(histogram.toState()).toEqual(histogramOf(kept).toState());
        expectWithinBound(histogram, kept);
      }),
      { numRuns: 200 },
    );
  });

  it('merges and unmerges exactly, and round-trips through its JSON state', () => {
    const a = histogramOf([0, 1, 2, 3, 500, 500.5]);
    const b = histogramOf([0, 7, 500, 10_000]);
    const merged = LogHistogram.fromState(JSON.parse(JSON.stringify(a.toState())));
    merged.merge(b);
    expect(merged.count()).toBe(10);
    expect(merged.toState()).toEqual(histogramOf([0, 1, 2, 3, 500, 500.5, 0, 7, 500, 10_000]).toState());
    merged.merge(b, -1);
    expect(merged.toState()).toEqual(a.toState());
  });

  it('matches exact percentiles on 100,000 log-normal latencies', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) + 0.5) / 2 ** 31;
    const values = Array.from({ length: 100_000 }, () =>
      Math.exp(5 + Math.sqrt(-2 * Math.log(random())) * Math.cos(2 * Math.PI * random())),
    );
    const histogram = histogramOf(values);
    expectWithinBound(histogram, values);
    expect(Object.keys(histogram.toState().buckets).length).toBeLessThan(1_000);
  });
});
