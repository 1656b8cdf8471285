import { describe, expect, it } from 'vitest';
import { minimumPairedMeanSampleSize, minimumSampleSize } from './sampleSize.js';
import { minimumDetectableEffect } from './mde.js';

describe('minimumSampleSize', () => {
  // Fleiss, Levin, Paik 2003 eq. 4.14: 0.5 vs 0.4, alpha 0.05, power 0.8 -> 387.35, so 388 per run
  it('unpaired: the published 388', () => {
    expect(minimumSampleSize({ effect: 0.1, baselineRate: 0.5 })).toBe(388);
  });

  // Connor 1987, computed in Python (see mde.test.ts): psi = 0.2, d = 0.05 -> 625.55 -> 626
  it('paired: Connor 1987 rounded up', () => {
    expect(minimumSampleSize({ effect: 0.05, discordance: 0.2 })).toBe(626);
    expect(minimumSampleSize({ effect: 0.03, discordance: 0.1 })).toBe(870);
  });

  it('inverts minimumDetectableEffect: n detects the effect, n - 1 does not', () => {
    for (const [effect, discordance] of [
      [0.05, 0.2],
      [0.1, 0.3],
      [0.02, 0.05],
    ] as const) {
      const n = minimumSampleSize({ effect, discordance });
      expect(minimumDetectableEffect({ n, discordance })).toBeLessThanOrEqual(effect + 1e-9);
      expect(minimumDetectableEffect({ n: n - 1, discordance })).toBeGreaterThan(effect);
    }
  });

  // paired t, d_z = 0.5, alpha 0.05, power 0.8: 31.4 + 1.92 -> 34 (G*Power's exact noncentral-t answer is also 34)
  it('paired means: Guenther 1981 approximation', () => {
    expect(minimumPairedMeanSampleSize({ effectSize: 0.5 })).toBe(34);
    expect(minimumPairedMeanSampleSize({ effectSize: 0.2 })).toBeGreaterThan(190);
    expect(() => minimumPairedMeanSampleSize({ effectSize: 0 })).toThrow(/effectSize/);
  });

  it('refuses bad input, naming it', () => {
    expect(() => minimumSampleSize({ effect: 0 })).toThrow(/effect/);
    expect(() => minimumSampleSize({ effect: 0.1, power: 1 })).toThrow(/power/);
  });
});
