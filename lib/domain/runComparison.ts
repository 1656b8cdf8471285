import { z } from 'zod';
import { ErrorCodeSchema, StageNameSchema } from './stageResult.js';

/*
 * Units: every rate is a fraction in [0, 1] and every rate difference a fraction in [-1, 1]
 * (candidate - baseline; multiply by 100 for percentage points). Latency in ms, cost in USD.
 * "baseline" is the reference run (run_ids[0]); "candidate" the run compared with it.
 */

/** A point estimate with a two-sided interval at the comparison's confidence level. */
export const IntervalSchema = z.object({ estimate: z.number(), lower: z.number(), upper: z.number() });
export type Interval = z.infer<typeof IntervalSchema>;

/**
 * A pass rate with its Wilson score interval. With trials (`trials: k`), when some case's trials disagree, the rate
 * is pass@1 (the mean over cases of each case's pass fraction) with a t interval over the per-case fractions, and
 * `passed` is the sum of those fractions (not an integer).
 */
export const RateSchema = z.object({
  passed: z.number().nonnegative(),
  n: z.number().int().nonnegative(),
  rate: z.number().min(0).max(1).nullable(),
  lower: z.number().min(0).max(1).nullable(),
  upper: z.number().min(0).max(1).nullable(),
});
export type Rate = z.infer<typeof RateSchema>;

/** The Beta-Binomial (uniform prior) view of two pass rates. */
export const BayesianComparisonSchema = z.object({
  probability_b_better: z.number().min(0).max(1),
  difference: z.object({ mean: z.number(), lower: z.number(), upper: z.number() }),
  expected_loss_choosing_b: z.number().nonnegative(),
});
export type BayesianComparison = z.infer<typeof BayesianComparisonSchema>;

/**
 * A paired pass-rate change over the cases both runs scored: Wilson intervals per side, the difference with
 * Newcombe's paired (hybrid score) interval, and the exact McNemar test on the discordant pairs. Runs with trials are
 * paired case by case on per-case trial means (see `test`).
 */
export const PassRateDeltaSchema = z.object({
  paired_cases: z.number().int().nonnegative(),
  baseline: RateSchema,
  candidate: RateSchema,
  /** candidate - baseline pass rate (null when no paired cases) */
  difference: z.number().nullable(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  /** discordant pairs: passed in baseline, failed in candidate (McNemar's b) */
  newly_failing: z.number().int().nonnegative(),
  /** discordant pairs: failed in baseline, passed in candidate (McNemar's c) */
  newly_passing: z.number().int().nonnegative(),
  /** two-sided exact McNemar p-value (1 when there are no discordant pairs) */
  p_value: z.number().min(0).max(1),
  mid_p_value: z.number().min(0).max(1),
  /**
   * 'exact McNemar' while every paired value is 0 or 1 (always with one trial per run); with trials whose outcomes
   * disagree within a case, the paired t-test on the per-case pass fractions (then mid_p_value = p_value, and
   * newly_failing / newly_passing count the cases whose fraction fell / rose)
   */
  test: z.enum(['exact McNemar', 'paired t on per-case trial means']),
  /** p_value (or p_value_adjusted for groups) below alpha */
  significant: z.boolean(),
});
export type PassRateDelta = z.infer<typeof PassRateDeltaSchema>;

/** One stage's paired change, over the cases in which the stage ran (passed or failed) in both runs. */
export const StageDeltaSchema = PassRateDeltaSchema.extend({ stage: StageNameSchema });
export type StageDelta = z.infer<typeof StageDeltaSchema>;

/** One member of a family (a category, a tag, a complexity level); p-values Holm-adjusted within the family. */
export const GroupDeltaSchema = PassRateDeltaSchema.extend({
  key: z.string(),
  p_value_adjusted: z.number().min(0).max(1),
});
export type GroupDelta = z.infer<typeof GroupDeltaSchema>;

/** Result of Welch's unequal-variance t-test on candidate - baseline. */
export const WelchResultSchema = z.object({
  difference: z.number(),
  lower: z.number(),
  upper: z.number(),
  t: z.number().nullable(),
  df: z.number().nullable(),
  p_value: z.number().min(0).max(1),
});
export type WelchResult = z.infer<typeof WelchResultSchema>;

const SideOfFlipSchema = z.object({
  passed: z.boolean(),
  score: z.number().min(0).max(1),
  failing_stage: StageNameSchema.nullable(),
  error_code: ErrorCodeSchema.nullable(),
  /** the failing stage's message and structured details (diffs), when the side failed */
  message: z.string().nullable(),
  details: z.unknown().optional(),
  /**
   * with trials: the case's pass fraction over its scored trials (what the comparison paired); `passed`, `score` and
   * the message are then those of the case's first trial
   */
  pass_fraction: z.number().min(0).max(1).optional(),
});

/** A case that passed in one run and failed in the other (with trials: whose pass fraction fell or rose). */
export const FlippedCaseSchema = z.object({
  test_case_id: z.string(),
  category: z.string().nullable(),
  baseline: SideOfFlipSchema,
  candidate: SideOfFlipSchema,
});
export type FlippedCase = z.infer<typeof FlippedCaseSchema>;

export const FlippedListSchema = z.object({
  /** how many cases flipped this way (all of them) */
  total: z.number().int().nonnegative(),
  /** the first max_flipped of them, by test_case_id */
  cases: z.array(FlippedCaseSchema),
});

/** One rubric criterion's mean score in a run (1-5 scale), over the cases the judge scored on it. */
export const CriterionMeanSchema = z.object({
  name: z.string(),
  /** cases with a score on this criterion (each case's mean over its trials) */
  n: z.number().int().nonnegative(),
  mean: z.number().nullable(),
});
export type CriterionMean = z.infer<typeof CriterionMeanSchema>;

/**
 * A rubric criterion's paired change on the cases both runs scored on it (1-5 scale; candidate - baseline): the
 * paired t-test on the per-case differences (the exact sign test when they have no spread), with its interval at the
 * comparison's confidence; p-values Holm-adjusted across the criteria, `significant` on the adjusted p.
 */
export const CriterionDeltaSchema = z.object({
  name: z.string(),
  paired_cases: z.number().int().nonnegative(),
  baseline_mean: z.number().nullable(),
  candidate_mean: z.number().nullable(),
  difference: z.number().nullable(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  p_value: z.number().min(0).max(1),
  p_value_adjusted: z.number().min(0).max(1),
  test: z.literal('paired t'),
  significant: z.boolean(),
});
export type CriterionDelta = z.infer<typeof CriterionDeltaSchema>;

/** One run's own figures, side by side with the others. */
export const RunSummarySchema = z.object({
  /** 'A' for the reference, then 'B', 'C', ... in run_ids order (the verdicts use these) */
  label: z.string(),
  run_id: z.string(),
  suite_id: z.string(),
  target_id: z.string(),
  client_id: z.string().nullable(),
  /** model/client versions seen in the run's scorecards */
  client_versions: z.array(z.string()),
  completed_at: z.string().nullable(),
  /** over the scored cases: not-scored ones (infrastructure failures) are left out of every figure here */
  pass_rate: RateSchema,
  /** cases the platform could not score (target, MCP server, judge, breaker) */
  not_scored: z.number().int().nonnegative().default(0),
  /** not_scored / (scored + not_scored); null without cases */
  infrastructure_failure_rate: z.number().min(0).max(1).nullable().default(null),
  mean_score: z.number().min(0).max(1).nullable(),
  stages: z.array(z.object({ stage: StageNameSchema, rate: RateSchema })),
  /** percentiles with distribution-free order-statistic intervals; null without cases */
  latency_ms: z.object({
    mean: z.number().nullable(),
    p50: IntervalSchema.nullable(),
    p95: IntervalSchema.nullable(),
    p99: IntervalSchema.nullable(),
  }),
  tokens: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }),
  /** total cost with a t interval (n times the interval of the mean cost per case) */
  cost_usd: z.object({ total: IntervalSchema, per_case: z.number().nullable() }),
  /** pass rate / cost per case = passed cases per USD; null when the run cost nothing */
  accuracy_per_dollar: z.number().nullable(),
  /** per rubric criterion of the semantic judge (stage 4 with criteria scoring), sorted by name; empty without */
  criteria: z.array(CriterionMeanSchema).default([]),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

/** The candidate run compared with the baseline on the cases both scored. */
export const PairComparisonSchema = z.object({
  /** e.g. "B vs A" */
  label: z.string(),
  baseline_run_id: z.string(),
  candidate_run_id: z.string(),
  same_suite: z.boolean(),
  /** set when the two runs evaluated different suite versions: only cases with equal content hashes are paired */
  suite_versions: z
    .object({
      baseline_version: z.number().int().positive().nullable(),
      candidate_version: z.number().int().positive().nullable(),
      excluded_changed: z.number().int().nonnegative(),
      warning: z.string(),
    })
    .optional(),
  cases: z.object({
    baseline: z.number().int().nonnegative(),
    candidate: z.number().int().nonnegative(),
    shared: z.number().int().nonnegative(),
    only_baseline: z.number().int().nonnegative(),
    only_candidate: z.number().int().nonnegative(),
  }),
  overall: PassRateDeltaSchema,
  bayesian: BayesianComparisonSchema,
  /** mean overall_score difference with a seeded paired-bootstrap percentile interval and a paired t p-value */
  score: z.object({
    baseline_mean: z.number().nullable(),
    candidate_mean: z.number().nullable(),
    difference: IntervalSchema.nullable(),
    p_value: z.number().min(0).max(1),
    test: z.literal('paired bootstrap'),
  }),
  stages: z.array(StageDeltaSchema),
  by_category: z.array(GroupDeltaSchema),
  by_tag: z.array(GroupDeltaSchema),
  by_complexity: z.array(GroupDeltaSchema),
  /** Welch tests on per-case latency and cost (shared cases) */
  latency_ms: WelchResultSchema.nullable(),
  cost_per_case_usd: WelchResultSchema.nullable(),
  /** per rubric criterion both runs were judged on (sorted by name); empty when either run has no criterion scores */
  criteria: z.array(CriterionDeltaSchema).default([]),
  flipped: z.object({ newly_failing: FlippedListSchema, newly_passing: FlippedListSchema }),
  /** the smallest pass-rate change this comparison can detect (alpha, power 0.8) */
  minimum_detectable_effect: z.object({
    paired: z.number().nullable(),
    unpaired: z.number().nullable(),
    discordance: z.number().min(0).max(1).nullable(),
    alpha: z.number(),
    power: z.number(),
  }),
  /** true when the overall change or any Holm-adjusted group change is significant */
  significant: z.boolean(),
  /** one line, e.g. "B is worse than A on refunds by 29.8 points, p < 0.001" */
  verdict: z.string(),
});
export type PairComparison = z.infer<typeof PairComparisonSchema>;

export const ComparisonOptionsSchema = z
  .object({
    seed: z.number().int().default(42),
    confidence: z.number().gt(0.5).lt(1).default(0.95),
    max_flipped: z.number().int().min(0).max(1000).default(200),
    alpha: z.number().gt(0).lt(0.5).default(0.05),
  })
  .strict();
export type ComparisonOptions = z.infer<typeof ComparisonOptionsSchema>;

/** Two to ten runs side by side; the first is the reference every other run is paired with. */
export const ComparisonSchema = z.object({
  run_ids: z.array(z.string()).min(2).max(10),
  options: ComparisonOptionsSchema,
  runs: z.array(RunSummarySchema),
  /** one per non-reference run, in run_ids order */
  pairs: z.array(PairComparisonSchema),
  created_at: z.iso.datetime({ offset: true }),
});
export type Comparison = z.infer<typeof ComparisonSchema>;
