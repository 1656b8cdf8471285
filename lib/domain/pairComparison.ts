import { z } from 'zod';
import { PassRateDeltaSchema } from './runComparison.js';

/** A proportion with its 95% Wilson interval; estimate null when nothing was counted. */
export const ProportionIntervalSchema = z.object({
  estimate: z.number().nullable(),
  lower: z.number(),
  upper: z.number(),
  n: z.number().int().nonnegative(),
});
export type ProportionInterval = z.infer<typeof ProportionIntervalSchema>;

/** One side of a baseline-vs-enhanced pair: how its run did. */
export const PairSideSchema = z.object({
  run_id: z.string(),
  target_id: z.string(),
  status: z.string(),
  /** scorecards counted (cases x trials), and how many of them passed */
  scorecards: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  /** cases with at least one scored trial */
  cases: z.number().int().nonnegative(),
  /** scorecards not scored (infrastructure faults: target, MCP server, judge), left out of pass_rate */
  not_scored: z.number().int().nonnegative(),
  /**
   * pass@1 over the scored cases: the mean of each case's pass fraction over its scored trials (n = cases); with one
   * trial a case (or trials that agree) the plain pass rate with a Wilson interval, else a t interval over the
   * per-case fractions
   */
  pass_rate: ProportionIntervalSchema,
  total_cost_usd: z.number().nonnegative(),
  mean_cost_usd: z.number().nonnegative(),
  /** tool calls the agent made per scorecard (its trajectory's calls, else the calls in its answer; 0 for a model without tools) */
  calls_per_case: z.number().nonnegative(),
  mean_latency_ms: z.number().nonnegative(),
});
export type PairSide = z.infer<typeof PairSideSchema>;

export const PairwiseCaseSchema = z.object({
  test_case_id: z.string(),
  trial: z.number().int().positive(),
  /** the verdict surviving the position swap; `tie` also when the two orders disagreed */
  winner: z.enum(['enhanced', 'baseline', 'tie']),
  consistent: z.boolean(),
  score_enhanced: z.number(),
  score_baseline: z.number(),
});
export type PairwiseCase = z.infer<typeof PairwiseCaseSchema>;

/** The pairwise judge's verdicts over the answers both runs gave (same case, same trial). */
export const PairwiseSummarySchema = z.object({
  judge_model: z.string(),
  judged: z.number().int().nonnegative(),
  enhanced_wins: z.number().int().nonnegative(),
  ties: z.number().int().nonnegative(),
  baseline_wins: z.number().int().nonnegative(),
  /** verdicts the position swap did not confirm (counted as ties) */
  inconsistent: z.number().int().nonnegative(),
  /** pairs the judge could not compare (its error; not counted) */
  errors: z.number().int().nonnegative(),
  /** enhanced wins / (enhanced wins + baseline wins), ties left out, with a 95% Wilson interval */
  win_rate: ProportionIntervalSchema,
  judge_cost_usd: z.number().nonnegative(),
  cases: z.array(PairwiseCaseSchema),
});
export type PairwiseSummary = z.infer<typeof PairwiseSummarySchema>;

/** Baseline (the model without tools) vs enhanced (the same suite with MCP tools). */
export const RunPairComparisonSchema = z.object({
  pair_id: z.string(),
  baseline: PairSideSchema,
  enhanced: PairSideSchema,
  /** enhanced pass rate minus baseline pass rate, in points */
  pass_rate_delta_pts: z.number().nullable(),
  /**
   * the paired change on the cases both runs scored, on per-case trial means (lib/compare PairedMeans: exact
   * McNemar while every value is 0 or 1, else the paired t-test), 95% interval, alpha 0.05; null without shared cases
   */
  paired: PassRateDeltaSchema.nullable(),
  /** null until both runs finished, or when no pairwise judge was asked for */
  pairwise: PairwiseSummarySchema.nullable(),
});
export type RunPairComparison = z.infer<typeof RunPairComparisonSchema>;
