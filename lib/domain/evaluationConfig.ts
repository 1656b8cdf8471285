import { z } from 'zod';
import { RunPrioritySchema } from './runPriority.js';
import { CoercionPolicySpecSchema } from './coercionPolicy.js';
import { CompatModeSchema } from './bfclReference.js';
import { ReferenceMetricNameSchema } from './referenceMetric.js';
import { JudgeCriteriaSchema } from './judgeCriteria.js';
import { SampleSpecSchema } from './sampling.js';

export const ExecutionConfigSchema = z
  .object({
    enabled: z.boolean().default(false),
    /**
     * `recorded`: cassettes (replay or record); `http`: the live API; `expected`: serve the case's expected_raw_data;
     * `mcp`: call the tools on the target's MCP servers (`mcp_servers`); `environment`: each case's stateful environment
     * (lib/environments, the case's `environment`), a fresh instance per conversation.
     */
    provider: z.enum(['recorded', 'http', 'expected', 'mcp', 'environment']).default('recorded'),
    /** for `recorded`: replay only, or call the live API and record what it returns */
    mode: z.enum(['replay', 'record']).default('replay'),
    /** cassette file (JSONL) for `recorded` */
    cassette_path: z.string().optional(),
    /** base URL for `http` (and for `recorded` in record mode) */
    base_url: z.string().url().optional(),
    /** relative numeric tolerance when comparing returned data: 0.0001 = 0.01% */
    relative_tolerance: z.number().nonnegative().default(0.0001),
    timeout_ms: z.number().int().positive().default(30_000),
  })
  .strict();
export type ExecutionConfig = z.infer<typeof ExecutionConfigSchema>;

export const SemanticsConfigSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** `local`: the offline reference heuristic; `openai`: an OpenAI / Azure OpenAI model as judge */
    judge: z.enum(['local', 'openai']).default('local'),
    /** a semantic score at or above this passes */
    pass_threshold: z.number().min(0).max(1).default(0.7),
    model: z.string().optional(),
    /** reference metrics computed beside the judge when stage 4 runs (reported, never part of pass/fail) */
    reference_metrics: z.array(ReferenceMetricNameSchema).default([]),
    /**
     * `criteria` (default): an LLM judge scores each rubric criterion on 1-5 with analysis first (G-Eval) and the
     * semantic score is their weighted mean; `holistic`: one 0-1 grade. The local heuristic ignores it.
     */
    scoring: z.enum(['criteria', 'holistic']).default('criteria'),
    /** the criteria (default DEFAULT_JUDGE_CRITERIA; a suite's judge_criteria apply when the run sets none) */
    criteria: JudgeCriteriaSchema.optional(),
    /** ask the model for log-probabilities and use the probability-weighted score (G-Eval); false for models without them */
    logprobs: z.boolean().default(true),
  })
  .strict();
export type SemanticsConfig = z.infer<typeof SemanticsConfigSchema>;

export const StageWeightsSchema = z
  .object({
    syntax: z.number().nonnegative().default(0.1),
    logic: z.number().nonnegative().default(0.5),
    execution: z.number().nonnegative().default(0.25),
    semantics: z.number().nonnegative().default(0.15),
  })
  .strict();
export type StageWeights = z.infer<typeof StageWeightsSchema>;

export const EvaluationProfileSchema = z.enum(['ci', 'nightly', 'release']);
export type EvaluationProfile = z.infer<typeof EvaluationProfileSchema>;

/**
 * How a run scores its cases. Pass rule: a case passes when every stage that ran passed (syntax and logic
 * always run; execution and semantics when enabled). The overall score is the weighted mean of the scores
 * of the stages that produced one; a syntax failure scores 0.
 */
export const EvaluationConfigSchema = z
  .object({
    profile: EvaluationProfileSchema.optional(),
    coercion: CoercionPolicySpecSchema.default('default'),
    /** reproduce another scorer's verdicts: `bfcl` = BFCL's AST checker on BFCL-imported cases (README "BFCL compatibility mode") */
    compat: CompatModeSchema.optional(),
    execution: ExecutionConfigSchema.default(ExecutionConfigSchema.parse({})),
    semantics: SemanticsConfigSchema.default(SemanticsConfigSchema.parse({})),
    weights: StageWeightsSchema.default(StageWeightsSchema.parse({})),
    /** how many times each case is run (one scorecard per trial); absent = 1. Gives pass@k, pass^k and flakiness */
    trials: z.number().int().min(1).max(20).optional(),
    /** a run with more than this share of its cases not scored (infrastructure failures) ends `degraded`, not `completed` */
    max_not_scored_share: z.number().min(0).max(1).default(0.05),
    /** a case with a redundant call (same call, same arguments, same result) fails stage 2 with `redundant_call`; default: it only costs efficiency */
    fail_on_redundant_calls: z.boolean().default(false),
    /** deliveries of a case whose target fails (retryable) before it is scored as a target error (not scored) */
    max_case_deliveries: z.number().int().min(1).max(20).default(3),
    /** evaluate a random sample of the suite's cases (lib/domain/sampling.ts); null or absent: every case */
    sample: SampleSpecSchema.nullable().optional(),
    /** which messages the stage workers take first when runs share the queues (lib/domain/runPriority.ts); absent = normal */
    priority: RunPrioritySchema.optional(),
  })
  .strict();
export type EvaluationConfig = z.infer<typeof EvaluationConfigSchema>;

/** The trials of a run's config (1 when absent). */
export function trialsOf(config: Pick<EvaluationConfig, 'trials'>): number {
  return config.trials ?? 1;
}
export type EvaluationConfigInput = z.input<typeof EvaluationConfigSchema>;

/**
 * A config as callers write it (API bodies, client overrides): every field optional and NO defaults filled in,
 * so that `{profile: 'nightly', execution: {provider: 'expected'}}` keeps the profile's `enabled: true`
 * instead of a default `enabled: false` overriding it. Resolve with resolveEvaluationConfig.
 */
export const EvaluationConfigOverridesSchema = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    const parsed = EvaluationConfigSchema.safeParse(value);
    if (!parsed.success)
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  })
  .transform((value) => value as EvaluationConfigInput);

/** Profiles switch stages 3 and 4: ci (both off), nightly (both on), release (3 on, 4 off). */
export const PROFILES = {
  ci: { execution: { enabled: false }, semantics: { enabled: false } },
  nightly: { execution: { enabled: true }, semantics: { enabled: true } },
  release: { execution: { enabled: true }, semantics: { enabled: false } },
} as const satisfies Record<EvaluationProfile, { execution: { enabled: boolean }; semantics: { enabled: boolean } }>;

/** Resolve a config: the profile sets stage switches, explicit stage settings in the input win. */
export function resolveEvaluationConfig(input: EvaluationConfigInput = {}): EvaluationConfig {
  const profile = input.profile ? PROFILES[input.profile] : undefined;
  return EvaluationConfigSchema.parse({
    ...input,
    execution: { ...profile?.execution, ...input.execution },
    semantics: { ...profile?.semantics, ...input.semantics },
  });
}
