import { z } from 'zod';
import {
  EfficiencyStatsSchema,
  RunHealthSchema,
  RunSchema,
  RunStatsSchema,
  SloComplianceSchema,
  TrialStatsSchema,
} from '../domain/index.js';

/** The answer of every list route: a page with its total and whether more follow (`limit`/`offset` paging). */
export function pageSchemaOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    has_more: z.boolean(),
    limit: z.number().int().positive(),
    offset: z.number().int().nonnegative(),
  });
}

/** A run as the API shows it: the stored run, its progress and live statistics, and links. */
export const RunViewSchema = RunSchema.extend({
  progress_pct: z.number().min(0).max(100),
  stats: RunStatsSchema.nullable(),
  /** runs with `trials` > 1: pass@1, pass@k, pass^k and the flaky cases, from the scorecards of every trial */
  trial_stats: TrialStatsSchema.optional(),
  /** a finished run: calls made vs needed, redundant calls, model turns and tokens over its scored cases (from its scorecards) */
  efficiency: EfficiencyStatsSchema.optional(),
  /** circuit breaker, deferred cases, dead letters, last error; null where the backend has no per-run queue figures */
  health: RunHealthSchema.nullable().optional(),
  /** its client's latency SLOs, one entry each (README "Latency SLOs"); absent when the client has none */
  slo_compliance: z.array(SloComplianceSchema).optional(),
  links: z.object({ self: z.string(), scorecards: z.string() }),
});
export type RunView = z.infer<typeof RunViewSchema>;
