import { z } from 'zod';

/** What a stratified sample groups cases by (a case's stratum for `tag` is its first tag in sorted order, or "(none)"). */
export const StratifyBySchema = z.enum(['category', 'complexity', 'tag']);
export type StratifyBy = z.infer<typeof StratifyBySchema>;

/**
 * A run config's sample of the suite's cases: `size` cases or a `rate` (share, rounded to the nearest case, at
 * least 1), simple random or stratified (`stratify_by`) with `proportional` (by each stratum's share of the
 * population) or `equal` allocation (the same number per stratum, capped by the stratum's size, the rest given
 * to strata that have cases left); stratum sizes are rounded by the largest-remainder method, so they sum to
 * exactly the sample size. The same `seed` and population give the same sample.
 */
export const SampleSpecSchema = z
  .object({
    size: z.number().int().positive().optional(),
    rate: z.number().gt(0).max(1).optional(),
    method: z.enum(['simple', 'stratified']).default('simple'),
    stratify_by: StratifyBySchema.optional(),
    allocation: z.enum(['proportional', 'equal']).default('proportional'),
    seed: z.number().int().min(0).max(0xffffffff).default(42),
  })
  .strict()
  .superRefine((s, ctx) => {
    if ((s.size === undefined) === (s.rate === undefined))
      ctx.addIssue({ code: 'custom', path: ['size'], message: 'give exactly one of size (a number of cases) or rate (a share, 0-1]' });
    if (s.method === 'stratified' && !s.stratify_by)
      ctx.addIssue({
        code: 'custom',
        path: ['stratify_by'],
        message: 'a stratified sample needs stratify_by: category, complexity or tag',
      });
    if (s.method === 'simple' && s.stratify_by)
      ctx.addIssue({ code: 'custom', path: ['stratify_by'], message: 'only for method "stratified"' });
  });
export type SampleSpec = z.infer<typeof SampleSpecSchema>;

/** One stratum of a run's sample: its cases in the population and in the sample. */
export const SampleStratumSchema = z
  .object({
    stratum: z.string(),
    population: z.number().int().nonnegative(),
    sample: z.number().int().nonnegative(),
  })
  .strict();
export type SampleStratum = z.infer<typeof SampleStratumSchema>;

/** What a sampled run recorded when it was planned: the spec, the population it drew from and the sample per stratum. */
export const RunSampleSchema = z
  .object({
    spec: SampleSpecSchema,
    population_size: z.number().int().nonnegative(),
    sample_size: z.number().int().nonnegative(),
    /** one stratum `(all)` for a simple random sample */
    strata: z.array(SampleStratumSchema),
  })
  .strict();
export type RunSample = z.infer<typeof RunSampleSchema>;

export const ALL_STRATUM = '(all)';
export const NO_STRATUM = '(none)';

/** The stratum of a case for `by` (metadata as cases and scorecards carry it). */
export function stratumOf(
  by: StratifyBy | undefined,
  meta: { category?: string | null | undefined; complexity_level: number; tags: readonly string[] },
): string {
  if (by === undefined) return ALL_STRATUM;
  if (by === 'category') return meta.category ?? NO_STRATUM;
  if (by === 'complexity') return String(meta.complexity_level);
  return meta.tags.length ? [...meta.tags].sort()[0]! : NO_STRATUM;
}
