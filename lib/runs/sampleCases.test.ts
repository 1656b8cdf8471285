import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SampleSpecSchema } from '../domain/index.js';
import { drawSample, sampleSizeOf, type SampleCandidate } from './sampleCases.js';

const population: SampleCandidate[] = Array.from({ length: 300 }, (_, i) => ({
  id: `case-${String(i).padStart(3, '0')}`,
  metadata: {
    category: ['orders', 'refunds', 'products'][i % 3 === 0 ? 0 : i % 7 === 0 ? 1 : 2],
    complexity_level: 1 + (i % 5),
    tags: i % 4 ? ['b', 'a'] : [],
  },
}));
const spec = (input: Record<string, unknown>) => SampleSpecSchema.parse(input);

describe('drawSample', () => {
  it('the same seed gives the same sample whatever order the population comes in; another seed another sample', () => {
    const s = spec({ size: 40, seed: 11 });
    const a = drawSample(population, s);
    expect(drawSample([...population].reverse(), s).ids).toEqual(a.ids);
    expect(a.ids).toHaveLength(40);
    expect(new Set(a.ids).size).toBe(40);
    expect(drawSample(population, spec({ size: 40, seed: 12 })).ids).not.toEqual(a.ids);
    expect(a.sample).toEqual({
      spec: s,
      population_size: 300,
      sample_size: 40,
      strata: [{ stratum: '(all)', population: 300, sample: 40 }],
    });
  });

  it('stratified: the recorded strata match the drawn ids, by category, complexity and first sorted tag', () => {
    for (const by of ['category', 'complexity', 'tag'] as const) {
      const s = spec({ rate: 0.1, method: 'stratified', stratify_by: by, seed: 3 });
      const { ids, sample } = drawSample(population, s);
      expect(sample.sample_size).toBe(30);
      expect(sample.strata.reduce((a, x) => a + x.sample, 0)).toBe(30);
      expect(sample.strata.reduce((a, x) => a + x.population, 0)).toBe(300);
      const chosen = population.filter((c) => ids.includes(c.id));
      const key = (c: SampleCandidate) =>
        by === 'category'
          ? c.metadata!.category!
          : by === 'complexity'
            ? String(c.metadata!.complexity_level)
            : c.metadata!.tags.length
              ? 'a'
              : '(none)';
      for (const stratum of sample.strata) expect(chosen.filter((c) => key(c) === stratum.stratum).length).toBe(stratum.sample);
    }
  });

  it('property: any population, size and allocation: the strata sum exactly to the sample, which has that many distinct ids', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('x', 'y', 'z', undefined), { minLength: 0, maxLength: 120 }),
        fc.integer({ min: 1, max: 150 }),
        fc.constantFrom('proportional' as const, 'equal' as const),
        fc.integer({ min: 0, max: 1000 }),
        (categories, size, allocation, seed) => {
          const pop = categories.map((category, i) => ({
            id: `c${i}`,
            metadata: { ...(category ? { category } : {}), complexity_level: 1, tags: [] },
          }));
          const { ids, sample } = drawSample(pop, spec({ size, method: 'stratified', stratify_by: 'category', allocation, seed }));
          expect(ids.length).toBe(Math.min(size, pop.length));
          expect(new Set(ids).size).toBe(ids.length);
          expect(sample.strata.reduce((a, x) => a + x.sample, 0)).toBe(ids.length);
        },
      ),
      { seed: 5, numRuns: 200 },
    );
  });

  it('sample sizes and spec errors', () => {
    expect(sampleSizeOf(spec({ rate: 0.001 }), 100)).toBe(1);
    expect(sampleSizeOf(spec({ size: 500 }), 100)).toBe(100);
    expect(sampleSizeOf(spec({ rate: 0.25 }), 0)).toBe(0);
    expect(() => spec({ size: 3, rate: 0.2 })).toThrow(/exactly one of size/);
    expect(() => spec({ size: 3, method: 'stratified' })).toThrow(/stratify_by/);
    expect(() => spec({ rate: 1.5 })).toThrow();
  });
});
