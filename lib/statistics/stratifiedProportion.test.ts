import { describe, expect, it } from 'vitest';
import { createRandom } from './random.js';
import { allocateSample, sampleIndices } from './sampleAllocation.js';
import { stratifiedProportion } from './stratifiedProportion.js';
import { wilsonInterval } from './wilson.js';

describe('stratifiedProportion', () => {
  it('hand-computed: weights by population share, FPC variance, Wilson at the Kish effective size', () => {
    // strata: N 600 (sample 30, 24 pass) and N 400 (sample 20, 10 pass)
    const r = stratifiedProportion([
      { population: 600, sampled: 30, passed: 24 },
      { population: 400, sampled: 20, passed: 10 },
    ]);
    const p = 0.6 * 0.8 + 0.4 * 0.5; // 0.68
    const v = (0.36 * (1 - 30 / 600) * 0.8 * 0.2) / 29 + (0.16 * (1 - 20 / 400) * 0.5 * 0.5) / 19;
    expect(r.estimate).toBeCloseTo(p, 12);
    expect(r.effective_n).toBeCloseTo((p * (1 - p)) / v, 9);
    const z = 1.959963984540054;
    const n = r.effective_n;
    const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
    const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
    expect(r.lower).toBeCloseTo(centre - half, 9);
    expect(r.upper).toBeCloseTo(centre + half, 9);
    expect(r.unsampled_share).toBe(0);
  });

  it('a whole population is exact; one stratum without FPC pressure is close to plain Wilson', () => {
    expect(stratifiedProportion([{ population: 10, sampled: 10, passed: 7 }])).toMatchObject({ estimate: 0.7, lower: 0.7, upper: 0.7 });
    const big = stratifiedProportion([{ population: 10_000_000, sampled: 200, passed: 150 }]);
    const w = wilsonInterval(150, 200);
    expect(big.lower).toBeCloseTo(w.lower, 2);
    expect(big.upper).toBeCloseTo(w.upper, 2);
  });

  it('all-pass strata still get an interval (SRS fallback), unsampled strata are reported, bad counts refused', () => {
    const r = stratifiedProportion([
      { population: 100, sampled: 10, passed: 10 },
      { population: 100, sampled: 0, passed: 0 },
    ]);
    expect(r.estimate).toBe(1);
    expect(r.lower).toBeLessThan(1);
    expect(r.upper).toBe(1);
    expect(r.unsampled_share).toBe(0.5);
    expect(() => stratifiedProportion([{ population: 5, sampled: 6, passed: 1 }])).toThrow(/passed <= sampled <= population/);
  });

  it('property (bounded, seeded): 95% intervals from simple and stratified samples cover the full-set rate ~95% of the time', () => {
    // a fixed population of 2,000 cases in 4 strata with very different pass rates
    const rates = [0.95, 0.7, 0.4, 0.1];
    const sizes = [800, 600, 400, 200];
    const population = createRandom(7);
    const strata = sizes.map((n, h) => Array.from({ length: n }, () => population.next() < rates[h]!));
    const all = strata.flat();
    const truth = all.filter(Boolean).length / all.length;
    const trials = 1500;
    let coveredSimple = 0;
    let coveredStratified = 0;
    let widthSimple = 0;
    let widthStratified = 0;
    for (let seed = 1; seed <= trials; seed++) {
      const random = createRandom(seed);
      // simple random sample of 120
      const picked = sampleIndices(all.length, 120, random);
      const passed = picked.filter((i) => all[i]).length;
      const s = stratifiedProportion([{ population: all.length, sampled: 120, passed }]);
      if (s.lower <= truth && truth <= s.upper) coveredSimple++;
      widthSimple += s.upper - s.lower;
      // proportional stratified sample of 120
      const alloc = allocateSample(sizes, 120, 'proportional');
      const counts = strata.map((members, h) => {
        const idx = sampleIndices(members.length, alloc[h]!, random);
        return { population: members.length, sampled: alloc[h]!, passed: idx.filter((i) => members[i]).length };
      });
      const st = stratifiedProportion(counts);
      if (st.lower <= truth && truth <= st.upper) coveredStratified++;
      widthStratified += st.upper - st.lower;
    }
    const simple = coveredSimple / trials;
    const stratified = coveredStratified / trials;
    // nominal 0.95; with 1,500 draws the Monte Carlo sd is ~0.006
    expect(simple).toBeGreaterThan(0.925);
    expect(simple).toBeLessThan(0.975);
    expect(stratified).toBeGreaterThan(0.925);
    expect(stratified).toBeLessThan(0.975);
    // stratifying on a variable that predicts the outcome narrows the interval
    expect(widthStratified).toBeLessThan(widthSimple);
  });
});
