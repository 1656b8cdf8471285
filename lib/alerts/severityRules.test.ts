import { describe, expect, it } from 'vitest';
import { dropStep, ratioStep, severityFor, sloStep, type SizeStep } from './severityRules.js';

describe('alert severity rules', () => {
  it.each<[SizeStep, number, string]>([
    [1, 0.04, 'low'],
    [1, 0.005, 'low'], // alpha/10 itself is not strong
    [1, 0.0049, 'medium'],
    [2, 0.02, 'medium'],
    [2, 1e-6, 'high'],
    [3, 0.049, 'high'],
    [3, 0.001, 'critical'],
  ])('size step %i with p %f at alpha 0.05 is %s', (step, p, severity) => {
    expect(severityFor(step, p, 0.05)).toBe(severity);
  });

  it('strong evidence follows the client alpha (alpha 0.01: strong below 0.001)', () => {
    expect([severityFor(2, 0.002, 0.01), severityFor(2, 0.0009, 0.01)]).toEqual(['medium', 'high']);
  });

  it.each<[number, number, number, ReturnType<typeof dropStep>]>([
    [1.9, 2, 5, undefined],
    [2, 2, 5, { step: 1, threshold: 2 }],
    [2.0000000000000018, 2, 5, { step: 1, threshold: 2 }],
    [4.99, 2, 5, { step: 1, threshold: 2 }],
    [5, 2, 5, { step: 2, threshold: 5 }],
    [9.99, 2, 5, { step: 2, threshold: 5 }],
    [10, 2, 5, { step: 3, threshold: 10 }],
    [0.5, 0.25, 0.5, { step: 2, threshold: 0.5 }],
    [Number.NaN, 2, 5, undefined],
  ])('a drop of %f (warning %f, critical %f)', (drop, warning, critical, expected) => {
    expect(dropStep(drop, warning, critical)).toEqual(expected);
  });

  it.each<[number, number, number, ReturnType<typeof ratioStep>]>([
    [1.49, 1.5, 2, undefined],
    [1.5, 1.5, 2, { step: 1, threshold: 1.5 }],
    [2, 1.5, 2, { step: 2, threshold: 2 }],
    [2.99, 1.5, 2, { step: 2, threshold: 2 }],
    [3, 1.5, 2, { step: 3, threshold: 3 }],
    [2, 1.2, 1.5, { step: 3, threshold: 2 }],
    [Number.POSITIVE_INFINITY, 1.5, 2, undefined],
  ])('a ratio of %f (warning ×%f, critical ×%f)', (ratio, warning, critical, expected) => {
    expect(ratioStep(ratio, warning, critical)).toEqual(expected);
  });

  it.each<[number, ReturnType<typeof sloStep>]>([
    [1, undefined],
    [1.01, { step: 1, threshold: 1 }],
    [1.49, { step: 1, threshold: 1 }],
    [1.5, { step: 2, threshold: 1.5 }],
    [2, { step: 3, threshold: 2 }],
    [0.8, undefined],
  ])('an SLO margin p95/target of %f', (ratio, expected) => {
    expect(sloStep(ratio)).toEqual(expected);
  });
});
