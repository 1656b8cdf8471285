import { z } from 'zod';
import { AlertSchema, type Alert, type Run } from '../../domain/index.js';
import { runTrends, TrendGroupBySchema, TrendSeriesSchema, type RunWithStats } from '../../runs/index.js';
import { ApiError } from '../problem.js';
import { defineRoute } from '../route.js';

const DAY_MS = 86_400_000;
/** the widest range one request may ask for */
export const MAX_TREND_DAYS = 366;
/** the most runs one request aggregates (narrow the range or filter beyond it) */
export const MAX_TREND_RUNS = 10_000;
const PAGE = 1000;

const IsoDate = z.iso.date();

const TrendAlertSchema = AlertSchema.pick({
  id: true,
  run_id: true,
  client_id: true,
  metric: true,
  severity: true,
  status: true,
  message: true,
  created_at: true,
});
type TrendAlert = z.infer<typeof TrendAlertSchema>;

function trendAlert(a: Alert): TrendAlert {
  return {
    id: a.id,
    run_id: a.run_id,
    client_id: a.client_id,
    metric: a.metric,
    severity: a.severity,
    status: a.status,
    message: a.message,
    created_at: a.created_at,
  };
}

export const TrendsAnswerSchema = z.object({
  from: z.string(),
  to: z.string(),
  group_by: TrendGroupBySchema,
  /** how many completed runs the series aggregate */
  runs: z.number().int().nonnegative(),
  series: z.array(TrendSeriesSchema),
  /** the regression alerts raised on those runs, newest first (to mark them on the charts) */
  alerts: z.array(TrendAlertSchema),
});

/** `to` defaults to today (UTC), `from` to 29 days before `to` (30 days in all). */
function rangeOf(query: { from?: string | undefined; to?: string | undefined }, now: Date): { from: string; to: string } {
  const to = query.to ?? now.toISOString().slice(0, 10);
  const from = query.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1)
    throw new ApiError(400, 'Bad Request', `from (${from}) is after to (${to})`, [{ path: 'query.from', message: 'must not be after to' }]);
  if (days > MAX_TREND_DAYS)
    throw new ApiError(400, 'Bad Request', `the range is ${days} days; at most ${MAX_TREND_DAYS}`, [
      { path: 'query.from', message: `at most ${MAX_TREND_DAYS} days before to` },
    ]);
  return { from, to };
}

export const trendsRoute = defineRoute({
  name: 'trends',
  method: 'GET',
  path: 'v1/trends',
  role: 'reader',
  tag: 'runs',
  summary:
    'Pass rate (with interval), p95 latency and cost per case per day of completed runs, one series per client (and suite, target), with their alerts',
  query: z
    .object({
      client_id: z.string().min(1).optional(),
      suite_id: z.string().min(1).optional(),
      target_id: z.string().min(1).optional(),
      from: IsoDate.optional(),
      to: IsoDate.optional(),
      group_by: TrendGroupBySchema.default('client'),
    })
    .strict(),
  response: TrendsAnswerSchema,
  responses: { 200: 'the series', 400: 'invalid filter or range' },
  handler: async ({ services, query }) => {
    const { stores, clock } = services;
    const { from, to } = rangeOf(query, clock.now());
    const filter = {
      ...(query.client_id ? { client_id: query.client_id } : {}),
      ...(query.suite_id ? { suite_id: query.suite_id } : {}),
      ...(query.target_id ? { target_id: query.target_id } : {}),
      status: 'completed' as const,
      created_after: `${from}T00:00:00.000Z`,
      created_before: new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS).toISOString(),
    };
    const runs: Run[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await stores.runs.listRuns(filter, { limit: PAGE, offset });
      runs.push(...page.items);
      if (runs.length > MAX_TREND_RUNS)
        throw new ApiError(
          400,
          'Bad Request',
          `more than ${MAX_TREND_RUNS} completed runs in ${from}..${to}; narrow the range or filter by client, suite or target`,
          [{ path: 'query.from', message: 'too wide for the runs it holds' }],
        );
      if (!page.has_more) break;
    }
    const withStats: RunWithStats[] = await Promise.all(
      runs.map(async (run) => ({ run, stats: await stores.runStats.getRunStats(run.id) })),
    );
    const runIds = new Set(runs.map((r) => r.id));
    const alerts: Alert[] = [];
    if (runIds.size > 0) {
      for (let offset = 0; ; offset += PAGE) {
        const page = await stores.alerts.listAlerts(query.client_id ? { client_id: query.client_id } : {}, { limit: PAGE, offset });
        alerts.push(...page.items.filter((a) => runIds.has(a.run_id)));
        // alerts are newest first: once past the range's start, older pages hold none of these runs
        const oldest = page.items.at(-1)?.created_at;
        if (!page.has_more || (oldest !== undefined && oldest < filter.created_after)) break;
      }
    }
    return {
      status: 200,
      body: {
        from,
        to,
        group_by: query.group_by,
        runs: runs.length,
        series: runTrends(withStats, query.group_by),
        alerts: alerts.map(trendAlert),
      },
    };
  },
});
