import { describe, expect, it } from 'vitest';
import { pairedProportionDifference } from './pairedProportionDifference.js';
import { wilsonInterval } from './wilson.js';

describe('pairedProportionDifference (Newcombe method 10)', () => {
  // Altman, Machin, Bryant, Gardner (2000), Statistics with Confidence, table 6.2: 14 both, 5 first only,
  // 0 second only, 22 neither (n = 41). Independently computed with the formula of biostatUZH's
  // confIntPairedProportion (R) transcribed to Python: D = 5/41 = 0.1220, 95% CI 0.0115 to 0.2265.
  // Our difference is B - A, so "first only" is a_only and the sign flips.
  it('reproduces the Altman et al. table 6.2 example', () => {
    const r = pairedProportionDifference({ both_passed: 14, a_only: 0, b_only: 5, both_failed: 22 });
    expect(r.estimate).toBeCloseTo(5 / 41, 12);
    expect(r.lower).toBeCloseTo(0.01148324138303325, 10);
    expect(r.upper).toBeCloseTo(0.2264926843512112, 10);
    const flipped = pairedProportionDifference({ both_passed: 14, a_only: 5, b_only: 0, both_failed: 22 });
    expect(flipped.estimate).toBeCloseTo(-5 / 41, 12);
    expect(flipped.lower).toBeCloseTo(-0.2264926843512112, 10);
    expect(flipped.upper).toBeCloseTo(-0.01148324138303325, 10);
  });

  it('no discordant pairs: estimate 0 and an interval around it', () => {
    const r = pairedProportionDifference({ both_passed: 80, a_only: 0, b_only: 0, both_failed: 20 });
    expect(r.estimate).toBe(0);
    expect(r.lower).toBeLessThan(0);
    expect(r.upper).toBeGreaterThan(0);
  });

  it('pairing narrows the interval compared with independent samples (positive correlation)', () => {
    const r = pairedProportionDifference({ both_passed: 700, a_only: 40, b_only: 20, both_failed: 240 });
    const a = wilsonInterval(740, 1000);
    const b = wilsonInterval(720, 1000);
    const unpairedHalfWidth = Math.sqrt((0.74 - a.lower) ** 2 + (b.upper - 0.72) ** 2);
    expect(r.estimate - r.lower).toBeLessThan(unpairedHalfWidth);
    expect(r.upper).toBeLessThan(0);
  });

  it('n = 0 is uninformative', () => {
    expect(pairedProportionDifference({ both_passed: 0, a_only: 0, b_only: 0, both_failed: 0 })).toEqual({
      estimate: Number.NaN,
      lower: -1,
      upper: 1,
    });
  });
});
