import { z } from 'zod';
import {
  AlertSchema,
  ComparisonSchema,
  EfficiencyStatsSchema,
  RateSchema,
  RunSchema,
  RunStatsSchema,
  SloComplianceSchema,
  StageNameSchema,
  TrialStatsSchema,
} from '../domain/index.js';
import { JudgingSummarySchema } from './judgingSummary.js';
import { SampleBreakdownSchema } from './sampleBreakdown.js';
import { CompatSummarySchema } from './compatSummary.js';

/*
 * The view model every renderer draws from (and the `json` format itself). Numbers come from the run's RunStats
 * (the exact live fold) and, for the comparison, from the Comparison; the one scan over the scorecards adds
 * only what RunStats does not hold: the stage funnel, the latency histogram and the listed failures.
 */

export const REPORT_MARKER = '<!-- evalplatform-report -->';

/** A case as a report lists it: who it is, what was asked and why it failed. */
export const ReportCaseSchema = z.object({
  test_case_id: z.string(),
  /** the case's nl_query; null when the case is no longer in the gold set */
  question: z.string().nullable(),
  category: z.string().nullable(),
  failing_stage: StageNameSchema.nullable(),
  /** `error`: the stage could not score; `failed`: it scored the case as wrong */
  status: z.enum(['failed', 'error']).nullable(),
  error_code: z.string().nullable(),
  message: z.string(),
  diff: z.array(z.string()),
  /** an agent's steps (model turns, calls and what they returned), when it ran a tool loop */
  trajectory: z.array(z.string()).optional(),
  score: z.number().nullable(),
  latency_ms: z.number().nullable(),
  /** a conversation case: the 0-based index of its first failing turn (question, calls and trajectory are that turn's) */
  failing_turn: z.number().int().nonnegative().optional(),
  /** the gold calls and the calls the target made, for the side-by-side diff (failures of this run; absent for flipped cases) */
  expected_calls: z.array(z.object({ tool_name: z.string(), arguments: z.unknown() })).optional(),
  actual_calls: z.array(z.object({ tool_name: z.string(), arguments: z.unknown() })).optional(),
});
export type ReportCase = z.infer<typeof ReportCaseSchema>;

/** A capped list: `total` counts all of them, `cases` holds the first ones (by the scan's order). */
export const ReportCaseListSchema = z.object({ total: z.number().int().nonnegative(), cases: z.array(ReportCaseSchema) });
export type ReportCaseList = z.infer<typeof ReportCaseListSchema>;

/** After a stage of the waterfall, how many cases are still clean (no stage so far failed or errored). */
export const FunnelStepSchema = z.object({
  stage: StageNameSchema,
  /** cases in which the stage ran (passed, failed or could not score) */
  ran: z.number().int().nonnegative(),
  /** cases with no failure or error in this stage or any before it */
  remaining: z.number().int().nonnegative(),
});
export type FunnelStep = z.infer<typeof FunnelStepSchema>;

export const LatencyHistogramSchema = z.object({
  /** width of every bin, ms */
  bin_ms: z.number().positive(),
  /** bins [from_ms, to_ms); the last is open-ended (`to_ms` null) and holds everything at or above its start */
  bins: z.array(z.object({ from_ms: z.number(), to_ms: z.number().nullable(), count: z.number().int().nonnegative() })),
});
export type LatencyHistogram = z.infer<typeof LatencyHistogramSchema>;

export const CategoryRowSchema = z.object({ category: z.string(), rate: RateSchema });
export type CategoryRow = z.infer<typeof CategoryRowSchema>;

export const RunReportSchema = z.object({
  kind: z.literal('run'),
  generated_at: z.iso.datetime({ offset: true }),
  run: RunSchema,
  stats: RunStatsSchema,
  /** overall pass rate with its Wilson interval (95%) */
  pass_rate: RateSchema,
  stages: z.array(z.object({ stage: StageNameSchema, ran: z.number().int(), passed: z.number().int(), rate: RateSchema })),
  funnel: z.array(FunnelStepSchema),
  categories: z.array(CategoryRowSchema),
  latency_histogram: LatencyHistogramSchema,
  error_codes: z.array(z.object({ code: z.string(), count: z.number().int().nonnegative() })),
  failures: ReportCaseListSchema,
  /** a run with `trials` > 1: pass@1, pass@k, pass^k and the flaky cases */
  trial_stats: TrialStatsSchema.optional(),
  /** calls made vs needed, redundant calls, model turns and tokens over the scored cases (absent in older reports) */
  efficiency: EfficiencyStatsSchema.optional(),
  /** semantic score, rubric criteria and reference metrics over the run's scorecards (absent in older reports) */
  judging: JudgingSummarySchema.optional(),
  /** a sampled run: the sample per stratum and the population pass-rate estimate (absent for a run of every case) */
  sample: SampleBreakdownSchema.optional(),
  /** a compatibility-mode run (`compat: "bfcl"`): verdicts that differ from the default mode, greedy-only passes */
  compat: CompatSummarySchema.optional(),
  /** the run's regression alerts (newest first); null when the platform keeps none */
  alerts: z.array(AlertSchema).nullable(),
  /** compliance with the client's latency SLOs (README "Latency SLOs"); null or absent when it has none */
  slo_compliance: z.array(SloComplianceSchema).nullable().optional(),
  /** the run compared with a base run (the base is `run_ids[0]`), with the flipped cases described */
  comparison: z
    .object({
      base_run: RunSchema,
      comparison: ComparisonSchema,
      newly_failing: ReportCaseListSchema,
      newly_passing: ReportCaseListSchema,
    })
    .nullable(),
});
export type RunReport = z.infer<typeof RunReportSchema>;
