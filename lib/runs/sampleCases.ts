import { ALL_STRATUM, stratumOf, type RunSample, type SampleSpec, type TestCase } from '../domain/index.js';
import { allocateSample, createRandom, sampleIndices } from '../statistics/index.js';

/** A population case as sampling sees it: its id and, for a stratified sample, its metadata. */
export type SampleCandidate = { id: string; metadata?: Pick<TestCase['metadata'], 'category' | 'complexity_level' | 'tags'> };

/** The sample size a spec asks of a population of `n`: `size` (at most n) or round(rate n), at least 1 when n > 0. */
export function sampleSizeOf(spec: SampleSpec, n: number): number {
  if (n === 0) return 0;
  if (spec.size !== undefined) return Math.min(spec.size, n);
  return Math.min(n, Math.max(1, Math.round((spec.rate ?? 1) * n)));
}

/**
 * Draws the sample a spec asks for, deterministically: the population is put in id order first (so the same ids
 * give the same sample whatever order the store returned them in), strata are sorted by name, each stratum's size
 * comes from allocateSample (sums exactly to the sample size) and its cases are drawn with a mulberry32 stream
 * seeded by `spec.seed`. Returns the sampled ids (in the population's id order) and what the run records.
 */
export function drawSample(population: readonly SampleCandidate[], spec: SampleSpec): { ids: string[]; sample: RunSample } {
  const sorted = [...population].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const by = spec.method === 'stratified' ? spec.stratify_by : undefined;
  const groups = new Map<string, SampleCandidate[]>();
  for (const c of sorted) {
    const key = by
      ? stratumOf(by, { category: c.metadata?.category, complexity_level: c.metadata?.complexity_level ?? 1, tags: c.metadata?.tags ?? [] })
      : ALL_STRATUM;
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(c);
  }
  const names = [...groups.keys()].sort();
  const size = sampleSizeOf(spec, sorted.length);
  const sizes = allocateSample(
    names.map((k) => groups.get(k)!.length),
    size,
    spec.allocation,
  );
  const random = createRandom(spec.seed);
  const chosen = new Set<string>();
  names.forEach((name, h) => {
    const members = groups.get(name)!;
    for (const i of sampleIndices(members.length, sizes[h]!, random)) chosen.add(members[i]!.id);
  });
  return {
    ids: sorted.filter((c) => chosen.has(c.id)).map((c) => c.id),
    sample: {
      spec,
      population_size: sorted.length,
      sample_size: chosen.size,
      strata: names.map((stratum, h) => ({ stratum, population: groups.get(stratum)!.length, sample: sizes[h]! })),
    },
  };
}
