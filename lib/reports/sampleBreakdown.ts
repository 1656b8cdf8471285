import { z } from 'zod';
import { RateSchema, RunSampleSchema, SampleSpecSchema, stratumOf, type Rate, type RunSample, type Scorecard } from '../domain/index.js';
import { stratifiedProportion, wilsonInterval } from '../statistics/index.js';

export const SampleBreakdownSchema = z.object({
  spec: SampleSpecSchema,
  population_size: z.number().int().nonnegative(),
  sample_size: z.number().int().nonnegative(),
  /** per stratum: its population, its sample, the scored sampled cases and their pass rate (Wilson, on the sample) */
  strata: z.array(
    z.object({
      stratum: z.string(),
      population: z.number().int().nonnegative(),
      sample: z.number().int().nonnegative(),
      rate: RateSchema,
    }),
  ),
  /**
   * the population pass rate estimated from the sample: strata weighted by population share, finite-population
   * corrected, Wilson at the Kish effective size (lib/statistics/stratifiedProportion.ts)
   */
  population_estimate: z.object({
    estimate: z.number().nullable(),
    lower: z.number(),
    upper: z.number(),
    effective_n: z.number().nullable(),
    unsampled_share: z.number(),
  }),
});
export type SampleBreakdown = z.infer<typeof SampleBreakdownSchema>;

/** Folds a sampled run's scored scorecards into its per-stratum breakdown (trial 1 only: one row per sampled case). */
export class SampleBreakdownBuilder {
  private readonly counts = new Map<string, { passed: number; n: number }>();
  constructor(private readonly sample: RunSample) {
    RunSampleSchema.parse(sample);
  }

  add(card: Pick<Scorecard, 'category' | 'complexity_level' | 'tags' | 'overall_passed' | 'trial'>): void {
    if (card.trial !== undefined && card.trial > 1) return;
    const key = stratumOf(this.sample.spec.method === 'stratified' ? this.sample.spec.stratify_by : undefined, card);
    let c = this.counts.get(key);
    if (!c) this.counts.set(key, (c = { passed: 0, n: 0 }));
    c.n++;
    if (card.overall_passed) c.passed++;
  }

  result(confidence = 0.95): SampleBreakdown {
    const strata = this.sample.strata.map((s) => {
      const c = this.counts.get(s.stratum) ?? { passed: 0, n: 0 };
      return { ...s, rate: rate(c.passed, c.n, confidence) };
    });
    const est = stratifiedProportion(
      strata.map((s) => ({
        population: s.population,
        sampled: Math.min(s.rate.n, s.population),
        passed: Math.min(s.rate.passed, s.population),
      })),
      confidence,
    );
    return {
      spec: this.sample.spec,
      population_size: this.sample.population_size,
      sample_size: this.sample.sample_size,
      strata,
      population_estimate: {
        estimate: Number.isNaN(est.estimate) ? null : est.estimate,
        lower: est.lower,
        upper: est.upper,
        effective_n: Number.isFinite(est.effective_n) ? est.effective_n : null,
        unsampled_share: est.unsampled_share,
      },
    };
  }
}

function rate(passed: number, n: number, confidence: number): Rate {
  if (n === 0) return { passed, n, rate: null, lower: null, upper: null };
  const w = wilsonInterval(passed, n, confidence);
  return { passed, n, rate: w.estimate, lower: w.lower, upper: w.upper };
}

/** One sentence stating the sample (reports put it under the headline). */
export function sampleSentence(b: SampleBreakdown): string {
  const spec = b.spec;
  const how = spec.method === 'stratified' ? `stratified by ${spec.stratify_by} (${spec.allocation} allocation)` : 'simple random';
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const est =
    b.population_estimate.estimate === null
      ? 'no estimate (nothing scored)'
      : `estimated population pass rate ${pct(b.population_estimate.estimate)} (95% CI ${pct(b.population_estimate.lower)}–${pct(b.population_estimate.upper)})`;
  return `Sampled run: ${b.sample_size} of ${b.population_size} cases, ${how}, seed ${spec.seed}; ${est}.`;
}
