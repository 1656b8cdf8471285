import { z } from 'zod';
import { EfficiencyStatsSchema } from './efficiency.js';

const CountsSchema = z.object({ completed: z.number().int().nonnegative(), passed: z.number().int().nonnegative() });

/** Live statistics of a run, folded from distinct scorecards (never blind increments). */
export const RunStatsSchema = z.object({
  run_id: z.string(),
  total: z.number().int().nonnegative(),
  /** cases with a scorecard, scored or not (progress) */
  completed: z.number().int().nonnegative(),
  /** cases scored passed or failed: the denominator of pass_rate, mean_score and the breakdowns */
  scored: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  /** scored and not passed: the model's failures */
  failed: z.number().int().nonnegative(),
  /** cases the platform could not score (target, MCP server, judge, breaker): excluded from every rate */
  not_scored: z.number().int().nonnegative(),
  progress_pct: z.number().min(0).max(100),
  /** passed / scored */
  pass_rate: z.number().min(0).max(1).nullable(),
  /** not_scored / completed: the infrastructure-failure rate, shown wherever pass_rate is */
  infrastructure_failure_rate: z.number().min(0).max(1).nullable(),
  mean_score: z.number().min(0).max(1).nullable(),
  /** per stage, over scored cases: ran = status other than skipped */
  stages: z.record(z.string(), z.object({ ran: z.number().int(), passed: z.number().int(), pass_rate: z.number().nullable() })),
  latency_ms: z.object({ p50: z.number().nullable(), p95: z.number().nullable(), p99: z.number().nullable(), mean: z.number().nullable() }),
  tokens: z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }),
  cost_usd: z.number().nonnegative(),
  by_category: z.record(z.string(), CountsSchema),
  by_tag: z.record(z.string(), CountsSchema),
  by_complexity: z.record(z.string(), CountsSchema),
  error_codes: z.record(z.string(), z.number().int().nonnegative()),
  client_versions: z.array(z.string()),
  /** efficiency of the scored cases that have one (absent for a run whose statistics began before it was folded) */
  efficiency: EfficiencyStatsSchema.optional(),
  updated_at: z.iso.datetime({ offset: true }),
});
export type RunStats = z.infer<typeof RunStatsSchema>;
