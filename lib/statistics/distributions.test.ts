import { describe, expect, it } from 'vitest';
import { binomialCdf, binomialPmf, studentTCdf } from './distributions.js';

describe('binomialCdf', () => {
  // Independently computed: scipy.stats.binom.cdf(k, n, p)
  it.each([
    [3, 10, 0.5, 0.171875],
    [190_000, 400_000, 0.5, 7.663400609792987e-220],
    [49, 100, 0.3, 0.9999779390866729],
    [380_000, 400_000, 0.95, 0.5010129809502997],
    [999, 1000, 0.99, 0.9999568287525893],
  ])('P(X <= %i), n=%i, p=%f', (k, n, p, expected) => {
    expect(binomialCdf(k, n, p) / expected).toBeCloseTo(1, 8);
  });

  it.each([
    [-1, 10, 0.5, 0],
    [10, 10, 0.5, 1],
    [2, 10, 0, 1],
    [2, 10, 1, 0],
  ])('edges: P(X <= %i), n=%i, p=%f = %f', (k, n, p, expected) => {
    expect(binomialCdf(k, n, p)).toBe(expected);
  });

  it('pmf sums to the cdf', () => {
    let sum = 0;
    for (let k = 0; k <= 7; k++) sum += binomialPmf(k, 20, 0.3);
    expect(sum).toBeCloseTo(binomialCdf(7, 20, 0.3), 10);
  });
});

describe('studentTCdf', () => {
  // Independently computed: scipy.stats.t.cdf(t, df)
  it.each([
    [-2, 5, 0.050969739414929174],
    [-4, 30, 0.0001909228180418782],
    [-2, 100_000, 0.022751481728753256],
  ])('t=%f df=%i', (t, df, expected) => {
    expect(studentTCdf(t, df) / expected).toBeCloseTo(1, 5);
  });
});
