import { describe, expect, it } from 'vitest';
import { sequentialMcNemar } from './sequentialMcNemar.js';
import { mcnemarExact } from './mcnemar.js';
import { createRandom } from './random.js';

/**
 * One simulated experiment: paired cases where control passes with `pControl`; the variant's outcome agrees with
 * control except on a discordant share `discordance`, split so the variant's pass rate is pControl + effect.
 * Peeks after every `batch` cases up to `maxCases`; returns whether the sequential test and a naive repeated
 * McNemar rejected at any look.
 */
function simulate(seed: number, effect: number, alpha: number, batch: number, maxCases: number): { sequential: boolean; naive: boolean } {
  const random = createRandom(seed);
  const discordance = 0.2;
  let b = 0;
  let c = 0;
  let p = 1;
  let sequential = false;
  let naive = false;
  for (let n = 1; n <= maxCases; n++) {
    if (random.next() < discordance) {
      // P(variant-only) = (discordance + effect) / 2 overall
      if (random.next() < 0.5 + effect / (2 * discordance)) c++;
      else b++;
    }
    if (n % batch === 0) {
      const look = sequentialMcNemar(b, c, { alpha, previousP: p });
      p = look.p_value;
      if (look.reject) sequential = true;
      if (mcnemarExact(b, c).p_value <= alpha) naive = true;
    }
  }
  return { sequential, naive };
}

describe('sequentialMcNemar', () => {
  it('hand-computed ratio: b = 2, c = 8, uniform mixture -> Lambda = 2^10 B(9, 3) = 1024 / 495', () => {
    // B(9, 3) = 8! 2! / 11! = 2 / 990; Lambda = 1024 * 2 / 990 = 2.0687
    const look = sequentialMcNemar(2, 8);
    expect(Math.exp(look.log_likelihood_ratio)).toBeCloseTo(2048 / 990, 9);
    expect(look.p_value).toBeCloseTo(990 / 2048, 9);
    expect(look.reject).toBe(false);
    // 0 of 20 discordant pairs against the variant: Lambda = 2^20 / 21 > 20 -> reject at alpha 0.05
    expect(sequentialMcNemar(0, 20).p_value).toBeCloseTo(21 / 2 ** 20, 12);
    expect(sequentialMcNemar(0, 20).reject).toBe(true);
    // no discordant pairs: Lambda = 1
    expect(sequentialMcNemar(0, 0).p_value).toBe(1);
  });

  it('the p-value is a running minimum over looks', () => {
    expect(sequentialMcNemar(5, 5, { previousP: 0.03 }).p_value).toBe(0.03);
    expect(sequentialMcNemar(5, 5, { previousP: 0.03, alpha: 0.05 }).reject).toBe(true);
  });

  it('refuses bad input, naming it', () => {
    expect(() => sequentialMcNemar(-1, 2)).toThrow(/counts/);
    expect(() => sequentialMcNemar(1, 2, { alpha: 1 })).toThrow(/alpha/);
    expect(() => sequentialMcNemar(1, 2, { prior: 0 })).toThrow(/prior/);
  });

  // Seeded and bounded: 1,000 null experiments of 400 cases, peeking after every batch of 10 (40 looks each).
  it('keeps the false-positive rate at or under alpha when peeking after every batch (null true)', () => {
    const alpha = 0.05;
    let sequential = 0;
    let naive = 0;
    const runs = 1_000;
    for (let seed = 1; seed <= runs; seed++) {
      const result = simulate(seed, 0, alpha, 10, 400);
      if (result.sequential) sequential++;
      if (result.naive) naive++;
    }
    expect(sequential / runs).toBeLessThanOrEqual(alpha);
    // the simulation is sharp enough to see the problem the sequential test solves: naive peeking inflates
    expect(naive / runs).toBeGreaterThan(alpha);
  });

  it('still detects a real 10-point improvement in most experiments', () => {
    let rejected = 0;
    for (let seed = 1; seed <= 200; seed++) if (simulate(10_000 + seed, 0.1, 0.05, 10, 400).sequential) rejected++;
    expect(rejected / 200).toBeGreaterThan(0.7);
  });
});
