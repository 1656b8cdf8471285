import { z } from 'zod';
import type { RunStats } from '../../domain/index.js';

/**
 * The few numbers a run list shows per run (the run list's `headline`): pass rate over the completed cases,
 * p95 latency, cost per completed case and the counts, all read from the run's live statistics. Null when the run
 * has no statistics yet (or no completed case, for the rates).
 */
export const RunHeadlineSchema = z.object({
  total: z.number().int().nonnegative(),
  completed: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  progress_pct: z.number().min(0).max(100),
  pass_rate: z.number().min(0).max(1).nullable(),
  p95_latency_ms: z.number().nonnegative().nullable(),
  cost_per_case_usd: z.number().nonnegative().nullable(),
});
export type RunHeadline = z.infer<typeof RunHeadlineSchema>;

export function runHeadlineOf(stats: RunStats | undefined): RunHeadline | null {
  if (!stats) return null;
  return {
    total: stats.total,
    completed: stats.completed,
    passed: stats.passed,
    failed: stats.failed,
    progress_pct: stats.progress_pct,
    pass_rate: stats.completed > 0 ? stats.passed / stats.completed : null,
    p95_latency_ms: stats.latency_ms.p95,
    cost_per_case_usd: stats.completed > 0 ? stats.cost_usd / stats.completed : null,
  };
}
