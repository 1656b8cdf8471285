import { describe, expect, it } from 'vitest';
import { minimumDetectableEffect } from './mde.js';

describe('minimumDetectableEffect', () => {
  // Published sample size: two proportions 0.5 vs 0.4, alpha 0.05 two-sided, power 0.8 need 388 per group
  // without continuity correction (Fleiss, Levin, Paik 2003, Statistical Methods for Rates and Proportions,
  // eq. 4.14; 387.3 rounded up). So 387.35 cases per run detect 10 points.
  it('unpaired: inverts the Fleiss sample size (0.5 vs 0.4 -> n = 387.35)', () => {
    expect(minimumDetectableEffect({ n: 387.3526, baselineRate: 0.5 })).toBeCloseTo(0.1, 4);
    expect(minimumDetectableEffect({ n: 387.3526 })).toBeCloseTo(0.1, 4);
  });

  // Independently computed with Connor (1987)'s formula in Python (scipy.stats.norm quantiles):
  // psi = 0.2, d = 0.05 -> n = 625.547; psi = 0.1, d = 0.03 -> n = 869.736.
  it.each([
    [625.5473178337214, 0.2, 0.05],
    [869.7361463761334, 0.1, 0.03],
  ])('paired: n=%f discordance=%f -> %f', (n, discordance, d) => {
    expect(minimumDetectableEffect({ n, discordance })).toBeCloseTo(d, 6);
  });

  it('shrinks with n (about 1/sqrt(n)) and with lower discordance', () => {
    const small = minimumDetectableEffect({ n: 300, discordance: 0.2 });
    const big = minimumDetectableEffect({ n: 1200, discordance: 0.2 });
    expect(big).toBeLessThan(small);
    expect(big / small).toBeCloseTo(0.5, 1);
    expect(minimumDetectableEffect({ n: 300, discordance: 0.05 })).toBeLessThan(small);
  });

  it('identical runs (discordance 0) still have a finite MDE; nonsense n gives NaN', () => {
    // (1.96 + 0.84)^2 / 327 = 0.024: all discordant pairs going one way
    expect(minimumDetectableEffect({ n: 327, discordance: 0 })).toBeCloseTo(0.024, 2);
    expect(minimumDetectableEffect({ n: 0 })).toBeNaN();
  });

  it('higher power or lower alpha need a bigger effect', () => {
    const base = minimumDetectableEffect({ n: 500, discordance: 0.15 });
    expect(minimumDetectableEffect({ n: 500, discordance: 0.15, power: 0.9 })).toBeGreaterThan(base);
    expect(minimumDetectableEffect({ n: 500, discordance: 0.15, alpha: 0.01 })).toBeGreaterThan(base);
  });
});
