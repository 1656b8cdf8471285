import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';
import { EvaluationConfigOverridesSchema } from './evaluationConfig.js';
import { SuiteVersionRefSchema } from './suiteVersion.js';

/**
 * The metric an experiment decides on: pass rate (higher is better), or mean latency or cost per case (lower is
 * better; frequentist only). Stage and criterion scores are not supported yet.
 */
export const ExperimentPrimaryMetricSchema = z.enum(['pass_rate', 'latency_ms', 'cost_usd']);
export type ExperimentPrimaryMetric = z.infer<typeof ExperimentPrimaryMetricSchema>;

/** Metrics a guardrail may watch. */
export const GuardrailMetricSchema = z.enum(['pass_rate', 'latency_ms', 'cost_usd']);
export type GuardrailMetric = z.infer<typeof GuardrailMetricSchema>;

/**
 * A metric a variant must not make worse by more than `max_degradation`: for pass_rate an absolute drop (0.02 = 2
 * points), for latency_ms and cost_usd a relative increase over the control's mean (0.2 = 20%).
 */
export const GuardrailSchema = z
  .object({
    metric: GuardrailMetricSchema,
    max_degradation: z.number().min(0).max(10),
  })
  .strict();
export type Guardrail = z.infer<typeof GuardrailSchema>;

/** How the primary metric is decided. */
export const ExperimentMethodSchema = z.enum(['frequentist', 'bayesian', 'sequential']);
export type ExperimentMethod = z.infer<typeof ExperimentMethodSchema>;

/** One arm: a target and/or run config overrides on top of the experiment's. Exactly one variant is the control. */
export const ExperimentVariantSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9._-]{1,60}$/, 'letters, digits, ".", "_" or "-", at most 60'),
    control: z.boolean().default(false),
    /** defaults to the experiment's target */
    target_id: z.string().min(1).optional(),
    config: EvaluationConfigOverridesSchema.optional(),
  })
  .strict();
export type ExperimentVariant = z.infer<typeof ExperimentVariantSchema>;

export const ExperimentStatusSchema = z.enum(['draft', 'running', 'concluded']);
export type ExperimentStatus = z.infer<typeof ExperimentStatusSchema>;

/** What a caller sends to create an experiment. */
export const ExperimentCreateSchema = z
  .object({
    name: z.string().min(1).max(200),
    hypothesis: z.string().min(1).max(2_000),
    suite_id: z.string().min(1),
    /** pinned when the experiment starts (`latest` = the newest published version) */
    suite_version: SuiteVersionRefSchema.default('latest'),
    /** the default target of variants that name none */
    target_id: z.string().min(1).optional(),
    primary_metric: ExperimentPrimaryMetricSchema.default('pass_rate'),
    guardrails: z.array(GuardrailSchema).max(10).default([]),
    variants: z.array(ExperimentVariantSchema).min(2).max(10),
    method: ExperimentMethodSchema.default('frequentist'),
    alpha: z.number().gt(0).max(0.5).default(0.05),
    power: z.number().gt(0).lt(1).default(0.8),
    /**
     * the smallest change worth detecting: for pass_rate a fraction (0.05 = 5 points); for latency_ms and cost_usd a
     * standardized paired effect (Cohen's d_z: mean difference / sd of the differences, 0.2 = small)
     */
    minimum_detectable_effect: z.number().gt(0).lt(1).default(0.05),
    /** expected share of cases the variants disagree on; omitted: the conservative unpaired sample size */
    expected_discordance: z.number().gt(0).max(1).optional(),
    /** bayesian: the expected pass-rate loss (fraction) below which a likely winner may be chosen */
    loss_threshold: z.number().gt(0).lt(1).default(0.005),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.suite_version === 'live')
      ctx.addIssue({
        code: 'custom',
        path: ['suite_version'],
        message: 'an experiment pins its cases: a published version number or "latest"',
      });
    if (e.primary_metric !== 'pass_rate' && e.method !== 'frequentist')
      ctx.addIssue({
        code: 'custom',
        path: ['method'],
        message: `${e.method} decides on pass_rate only; ${e.primary_metric} uses the frequentist paired t-test`,
      });
    const controls = e.variants.filter((v) => v.control).length;
    if (controls !== 1)
      ctx.addIssue({ code: 'custom', path: ['variants'], message: `exactly one variant must be the control, found ${controls}` });
    const names = new Set<string>();
    e.variants.forEach((v, i) => {
      if (names.has(v.name)) ctx.addIssue({ code: 'custom', path: ['variants', i, 'name'], message: `duplicate variant name "${v.name}"` });
      names.add(v.name);
      if (!v.target_id && !e.target_id)
        ctx.addIssue({ code: 'custom', path: ['variants', i, 'target_id'], message: 'required unless the experiment has a target_id' });
    });
    const metrics = new Set<string>();
    e.guardrails.forEach((g, i) => {
      if (metrics.has(g.metric))
        ctx.addIssue({ code: 'custom', path: ['guardrails', i, 'metric'], message: `duplicate guardrail "${g.metric}"` });
      metrics.add(g.metric);
    });
  });
export type ExperimentCreate = z.input<typeof ExperimentCreateSchema>;
export type ExperimentSettings = z.output<typeof ExperimentCreateSchema>;

/** A stored experiment: its settings, the computed minimum sample, the pinned version and runs once started. */
export const ExperimentSchema = z
  .object({
    id: z.string().min(1),
    /** the owning organization, stamped by the organization-scoped stores (absent: `default`) */
    organization: OrganizationFieldSchema,
    name: z.string(),
    hypothesis: z.string(),
    suite_id: z.string(),
    suite_version: SuiteVersionRefSchema,
    target_id: z.string().optional(),
    primary_metric: ExperimentPrimaryMetricSchema,
    guardrails: z.array(GuardrailSchema),
    variants: z.array(ExperimentVariantSchema),
    method: ExperimentMethodSchema,
    alpha: z.number(),
    power: z.number(),
    minimum_detectable_effect: z.number(),
    expected_discordance: z.number().optional(),
    loss_threshold: z.number(),
    /** paired cases needed (per variant) for `power` at `minimum_detectable_effect` (lib/statistics minimumSampleSize) */
    minimum_sample_size: z.number().int().positive(),
    status: ExperimentStatusSchema,
    created_by: z.string(),
    created_at: z.iso.datetime({ offset: true }),
    started_at: z.iso.datetime({ offset: true }).optional(),
    concluded_at: z.iso.datetime({ offset: true }).optional(),
    /** the suite version the variant runs pin (set at start) */
    pinned_suite_version: z.number().int().positive().optional(),
    /** variant name -> run id (set at start) */
    runs: z.record(z.string(), z.string()).default({}),
    /** sequential: the always-valid p-value's running minimum per variant over the looks so far */
    sequential_p: z.record(z.string(), z.number().gt(0).max(1)).default({}),
    /** the results frozen at conclude */
    conclusion: z.lazy(() => ExperimentResultsSchema).optional(),
  })
  .strict();
export type Experiment = z.infer<typeof ExperimentSchema>;

/** One variant's measured outcome on one case: passed (null when not scored), latency and cost when known. */
export interface ExperimentCaseOutcome {
  passed: boolean | null;
  latency_ms?: number;
  cost_usd?: number;
}

/**
 * A run's outcome on one case together with the case's key: the case id, or its trial key after trial 1
 * (lib/domain/trial.ts), as run statistics count it. Outcomes of several runs are matched by this key (the benchmark
 * leaderboard counts a case once per participant).
 */
export interface KeyedCaseOutcome extends ExperimentCaseOutcome {
  test_case_id: string;
}

const IntervalSchema = z.object({ estimate: z.number().nullable(), lower: z.number().nullable(), upper: z.number().nullable() }).strict();

/** A guardrail's outcome for one variant against the control: degradation > 0 is worse (see GuardrailSchema). */
export const GuardrailResultSchema = z
  .object({
    metric: GuardrailMetricSchema,
    max_degradation: z.number(),
    degradation: IntervalSchema.nullable(),
    /** passed: the whole interval within the allowance; failed: the whole interval beyond it; no_data: nothing measured */
    status: z.enum(['passed', 'failed', 'inconclusive', 'no_data']),
  })
  .strict();
export type GuardrailResult = z.infer<typeof GuardrailResultSchema>;

export const ExperimentVariantResultSchema = z
  .object({
    name: z.string(),
    control: z.boolean(),
    run_id: z.string().nullable(),
    scored: z.number().int().nonnegative(),
    passed: z.number().int().nonnegative(),
    pass_rate: IntervalSchema,
    latency_ms: IntervalSchema.nullable(),
    cost_usd: IntervalSchema.nullable(),
  })
  .strict();

/** One treatment variant against the control on the cases both scored. */
export const ExperimentComparisonSchema = z
  .object({
    variant: z.string(),
    paired_cases: z.number().int().nonnegative(),
    /** passed under control only / under the variant only */
    control_only: z.number().int().nonnegative(),
    variant_only: z.number().int().nonnegative(),
    /**
     * variant minus control on the primary metric: pass rate (fraction, Newcombe paired interval) or mean latency (ms)
     * or cost (USD) per case (paired t interval)
     */
    difference: IntervalSchema,
    /** Cohen's h of the two pass rates (pass_rate), or Cohen's d_z of the paired differences (latency_ms, cost_usd) */
    effect_size: z.object({ name: z.enum(['cohens_h', 'cohens_d']), value: z.number().nullable() }).strict(),
    /** variant_only / control_only (discordant-pair odds ratio; null with no control_only pairs) */
    odds_ratio: z.number().nullable(),
    /** McNemar exact or paired t (frequentist) or always-valid mSPRT (sequential) p-value; null for bayesian */
    p_value: z.number().nullable(),
    /** Holm-adjusted over the treatment variants */
    adjusted_p_value: z.number().nullable(),
    probability_of_improvement: z.number().nullable(),
    expected_loss: z.number().nullable(),
    /** whether the method may decide yet (fixed-sample methods: minimum sample reached or runs complete) */
    decidable: z.boolean(),
    decision: z.enum(['better', 'worse', 'inconclusive']),
    guardrails: z.array(GuardrailResultSchema),
  })
  .strict();
export type ExperimentComparison = z.infer<typeof ExperimentComparisonSchema>;

export const ExperimentResultsSchema = z
  .object({
    experiment_id: z.string(),
    status: ExperimentStatusSchema,
    method: ExperimentMethodSchema,
    primary_metric: ExperimentPrimaryMetricSchema,
    alpha: z.number(),
    minimum_sample_size: z.number().int(),
    runs_complete: z.boolean(),
    variants: z.array(ExperimentVariantResultSchema),
    comparisons: z.array(ExperimentComparisonSchema),
    /** the winning variant's name; null with verdict no_winner_yet or no_winner */
    winner: z.string().nullable(),
    verdict: z.enum(['winner', 'no_winner_yet', 'no_winner']),
    recommendation: z.string(),
  })
  .strict();
export type ExperimentResults = z.infer<typeof ExperimentResultsSchema>;
