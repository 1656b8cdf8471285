import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom } from './random.js';
import { allocateSample, largestRemainder, sampleIndices } from './sampleAllocation.js';

describe('largestRemainder', () => {
  it('hand-computed: floors first, then the largest fractional parts (ties by index)', () => {
    // quotas 3.6, 2.3, 4.1 -> floors 3, 2, 4 (9), one unit left -> the 0.6 part
    expect(largestRemainder([3.6, 2.3, 4.1], 10)).toEqual([4, 2, 4]);
    // equal parts: the lower index wins the tie
    expect(largestRemainder([1.5, 1.5], 3)).toEqual([2, 1]);
    // a capped share passes its unit on
    expect(largestRemainder([0.9, 0.1, 1], 2, [0, 5, 5])).toEqual([0, 1, 1]);
  });
});

describe('allocateSample', () => {
  it('proportional and equal allocation, hand-computed', () => {
    // N = 50, 30, 20; n = 10 -> 5, 3, 2
    expect(allocateSample([50, 30, 20], 10, 'proportional')).toEqual([5, 3, 2]);
    // N = 7, 2, 1; n = 9 -> quotas 6.3, 1.8, 0.9 -> 6, 1, 0 + two units to 0.9 and 0.8 -> 6, 2, 1
    expect(allocateSample([7, 2, 1], 9, 'proportional')).toEqual([6, 2, 1]);
    // equal: 1 case in the small stratum, the other 8 shared by the two big ones
    expect(allocateSample([100, 1, 100], 9, 'equal')).toEqual([4, 1, 4]);
    expect(allocateSample([3, 3], 100, 'equal')).toEqual([3, 3]);
    expect(allocateSample([], 5, 'proportional')).toEqual([]);
  });

  it('property: sums to exactly min(size, N), never more than a stratum has, for both allocations', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom('proportional' as const, 'equal' as const),
        (populations, size, allocation) => {
          const sizes = allocateSample(populations, size, allocation);
          const total = populations.reduce((a, b) => a + b, 0);
          expect(sizes.reduce((a, b) => a + b, 0)).toBe(Math.min(size, total));
          sizes.forEach((s, i) => {
            expect(Number.isInteger(s)).toBe(true);
            expect(s).toBeGreaterThanOrEqual(0);
            expect(s).toBeLessThanOrEqual(populations[i]!);
          });
          if (allocation === 'proportional' && total > 0) {
            // each share within one case of its exact quota
            sizes.forEach((s, i) => expect(Math.abs(s - (populations[i]! * Math.min(size, total)) / total)).toBeLessThan(1 + 1e-9));
          }
        },
      ),
      { seed: 20261126, numRuns: 500 },
    );
  });
});

describe('sampleIndices', () => {
  it('k distinct sorted indices; the same seed gives the same draw, another seed another', () => {
    const a = sampleIndices(1000, 50, createRandom(1));
    expect(new Set(a).size).toBe(50);
    expect(a).toEqual([...a].sort((x, y) => x - y));
    expect(a.every((i) => i >= 0 && i < 1000)).toBe(true);
    expect(sampleIndices(1000, 50, createRandom(1))).toEqual(a);
    expect(sampleIndices(1000, 50, createRandom(2))).not.toEqual(a);
    expect(sampleIndices(5, 5, createRandom(3))).toEqual([0, 1, 2, 3, 4]);
    expect(() => sampleIndices(3, 4, createRandom(3))).toThrow(/cannot draw 4 of 3/);
  });

  it('every index is about equally likely (uniform draw)', () => {
    const hits = new Array<number>(20).fill(0);
    const random = createRandom(99);
    for (let t = 0; t < 4000; t++) for (const i of sampleIndices(20, 5, random)) hits[i]!++;
    // expected 1000 each; binomial sd ~27
    for (const h of hits) expect(Math.abs(h - 1000)).toBeLessThan(120);
  });
});
