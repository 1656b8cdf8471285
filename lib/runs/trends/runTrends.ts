import { z } from 'zod';
import type { Run, RunStats } from '../../domain/index.js';
import { wilsonInterval } from '../../statistics/index.js';

/** What a trend series is keyed by: the client alone (default), or client and suite, or client, suite and target. */
export const TrendGroupBySchema = z.enum(['client', 'client_suite', 'client_suite_target']);
export type TrendGroupBy = z.infer<typeof TrendGroupBySchema>;

/** One UTC day of one series. */
export const TrendPointSchema = z.object({
  /** YYYY-MM-DD (UTC) of the runs' created_at */
  date: z.string(),
  runs: z.number().int().positive(),
  run_ids: z.array(z.string()),
  /** completed cases over the day's runs */
  cases: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  /** pooled: passed / completed cases over the day's runs; null without a completed case */
  pass_rate: z.number().min(0).max(1).nullable(),
  /** 95% Wilson interval of the pooled pass rate */
  pass_rate_interval: z.object({ lower: z.number(), upper: z.number() }).nullable(),
  /** the largest p95 of the day's runs (exact for the usual one nightly run a day; the worst run otherwise) */
  p95_latency_ms: z.number().nonnegative().nullable(),
  /** total cost / completed cases over the day's runs */
  cost_per_case_usd: z.number().nonnegative().nullable(),
});
export type TrendPoint = z.infer<typeof TrendPointSchema>;

export const TrendSeriesSchema = z.object({
  /** null: runs started without a client (API, CLI, demo) */
  client_id: z.string().nullable(),
  /** set when grouped by suite (client_suite, client_suite_target) */
  suite_id: z.string().optional(),
  /** set when grouped by target (client_suite_target) */
  target_id: z.string().optional(),
  points: z.array(TrendPointSchema),
});
export type TrendSeries = z.infer<typeof TrendSeriesSchema>;

export interface RunWithStats {
  run: Pick<Run, 'id' | 'client_id' | 'suite_id' | 'target_id' | 'created_at'>;
  stats: RunStats | undefined;
}

interface Bucket {
  runIds: string[];
  cases: number;
  passed: number;
  cost: number;
  p95: number | null;
}

/**
 * Aggregates runs into per-day points of one series per client (and suite, target). Pure: the route reads the
 * runs and their statistics. Series are ordered by their key, points by date; runs without statistics count as
 * runs with no completed case.
 */
export function runTrends(runs: readonly RunWithStats[], groupBy: TrendGroupBy = 'client'): TrendSeries[] {
  const series = new Map<string, { head: Omit<TrendSeries, 'points'>; days: Map<string, Bucket> }>();
  for (const { run, stats } of runs) {
    const head: Omit<TrendSeries, 'points'> = {
      client_id: run.client_id,
      ...(groupBy !== 'client' ? { suite_id: run.suite_id } : {}),
      ...(groupBy === 'client_suite_target' ? { target_id: run.target_id } : {}),
    };
    const key = JSON.stringify([head.client_id, head.suite_id ?? null, head.target_id ?? null]);
    let entry = series.get(key);
    if (!entry) series.set(key, (entry = { head, days: new Map() }));
    const date = run.created_at.slice(0, 10);
    let day = entry.days.get(date);
    if (!day) entry.days.set(date, (day = { runIds: [], cases: 0, passed: 0, cost: 0, p95: null }));
    day.runIds.push(run.id);
    if (stats) {
      day.cases += stats.completed;
      day.passed += stats.passed;
      day.cost += stats.cost_usd;
      if (stats.latency_ms.p95 !== null) day.p95 = Math.max(day.p95 ?? 0, stats.latency_ms.p95);
    }
  }
  return [...series.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, { head, days }]) => ({
      ...head,
      points: [...days.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([date, d]) => {
          const interval = d.cases > 0 ? wilsonInterval(d.passed, d.cases) : undefined;
          return {
            date,
            runs: d.runIds.length,
            run_ids: [...d.runIds].sort(),
            cases: d.cases,
            passed: d.passed,
            pass_rate: d.cases > 0 ? d.passed / d.cases : null,
            pass_rate_interval: interval ? { lower: interval.lower, upper: interval.upper } : null,
            p95_latency_ms: d.p95,
            cost_per_case_usd: d.cases > 0 ? d.cost / d.cases : null,
          };
        }),
    }));
}
