import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson.js';

describe('wilsonInterval', () => {
  // Published: Newcombe (1998), "Two-sided confidence intervals for the single proportion", Stat Med 17:857-872,
  // Table I, method 3 (score interval without continuity correction), 95%.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i -> [%f, %f] (Newcombe 1998, Table I)', (x, n, lower, upper) => {
    const r = wilsonInterval(x, n);
    expect(r.estimate).toBeCloseTo(x / n, 12);
    expect(r.lower).toBeCloseTo(lower, 4);
    expect(r.upper).toBeCloseTo(upper, 4);
  });

  it('matches scipy.stats.binomtest(81, 263).proportion_ci(method="wilson") to 1e-12', () => {
    const r = wilsonInterval(81, 263);
    expect(r.lower).toBeCloseTo(0.2552885198782742, 12);
    expect(r.upper).toBeCloseTo(0.36620957698280004, 12);
  });

  it('all successes ends at exactly 1; n = 0 is uninformative', () => {
    expect(wilsonInterval(20, 20).upper).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual({ estimate: Number.NaN, lower: 0, upper: 1 });
  });

  it('is wider at 99% than at 95%', () => {
    const a = wilsonInterval(40, 100, 0.95);
    const b = wilsonInterval(40, 100, 0.99);
    expect(b.lower).toBeLessThan(a.lower);
    expect(b.upper).toBeGreaterThan(a.upper);
  });

  it.each([
    [-1, 10],
    [11, 10],
    [1.5, 10],
  ])('rejects %f of %i', (x, n) => {
    expect(() => wilsonInterval(x, n)).toThrow(RangeError);
  });
});
