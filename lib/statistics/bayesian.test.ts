import { describe, expect, it } from 'vitest';
import { bayesianPassRateComparison } from './bayesian.js';

describe('bayesianPassRateComparison (uniform priors)', () => {
  // Independently computed with scipy: P(B > A) = 1 - quad(B.pdf(x) * A.cdf(x)) ... (scipy.integrate.quad over
  // scipy.stats.beta posteriors); the credible interval, expected loss and P(B > A) also checked against 4e6
  // numpy beta draws: (10/20, 15/20): [-0.0535, 0.4914], loss 0.00344; (287/327, 272/327): [-0.0997, 0.0084],
  // loss 0.0461; (3/10, 0/10): [-0.5528, 0.0427], loss 0.2530 (dblquad: 0.25311).
  it.each([
    [{ passed: 10, n: 20 }, { passed: 15, n: 20 }, 0.9445509292900702, -0.0535, 0.4914, 0.0034370425309921885],
    [{ passed: 287, n: 327 }, { passed: 272, n: 327 }, 0.0485776535735776, -0.0997, 0.0084, 0.04612845921024796],
    [{ passed: 3, n: 10 }, { passed: 0, n: 10 }, 0.0451127819548872, -0.5528, 0.0427, 0.25310558997218846],
  ])('%j vs %j', (a, b, probability, lower, upper, loss) => {
    const r = bayesianPassRateComparison(a, b, { seed: 7 });
    expect(r.probability_b_better).toBeCloseTo(probability, 8);
    expect(r.difference.mean).toBeCloseTo((b.passed + 1) / (b.n + 2) - (a.passed + 1) / (a.n + 2), 12);
    expect(Math.abs(r.difference.lower - lower)).toBeLessThan(0.01);
    expect(Math.abs(r.difference.upper - upper)).toBeLessThan(0.01);
    expect(Math.abs(r.expected_loss_choosing_b - loss)).toBeLessThan(0.003);
  });

  it('is deterministic for a seed and symmetric in P(B better)', () => {
    const a = { passed: 120, n: 200 };
    const b = { passed: 130, n: 200 };
    expect(bayesianPassRateComparison(a, b, { seed: 1 })).toEqual(bayesianPassRateComparison(a, b, { seed: 1 }));
    const ab = bayesianPassRateComparison(a, b).probability_b_better;
    const ba = bayesianPassRateComparison(b, a).probability_b_better;
    expect(ab + ba).toBeCloseTo(1, 10);
    expect(bayesianPassRateComparison(a, a).probability_b_better).toBeCloseTo(0.5, 10);
  });

  it('handles 400k cases quickly', () => {
    const started = performance.now();
    const r = bayesianPassRateComparison({ passed: 350_000, n: 400_000 }, { passed: 349_000, n: 400_000 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r.probability_b_better).toBeGreaterThan(0);
    expect(r.probability_b_better).toBeLessThan(0.01);
  });
});
