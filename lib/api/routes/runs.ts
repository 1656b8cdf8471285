import { z } from 'zod';
import {
  RunSchema,
  RunStatusSchema,
  ScorecardSchema,
  StageNameSchema,
  TERMINAL_RUN_STATUSES,
  TriggerMetadataSchema,
  trialsOf,
} from '../../domain/index.js';
import { checkRunConfig, createRun, CreateRunRequestSchema, runHeadlineOf, RunHeadlineSchema, runHealth } from '../../runs/index.js';
import { runCardStats } from './runCardStats.js';
import { runSloCompliance } from '../../alerts/index.js';
import { NotFoundError } from '../../ports/index.js';
import { requireAllowedOutboundUrls } from '../outboundUrls.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteContext } from '../route.js';
import { pageSchemaOf, RunViewSchema, type RunView } from '../schemas.js';
import { FailureViewSchema, failureView } from './runFailures.js';

/** A run in the run list: the stored run and its headline statistics (null before its first scorecard is counted). */
const RunListItemSchema = RunSchema.extend({ headline: RunHeadlineSchema.nullable() });

const IdParams = z.object({ id: z.string().min(1) });
/** what a run's scorecards can be filtered by (scorecards and failures routes) */
const ScorecardFilterQuery = {
  failing_stage: StageNameSchema.optional(),
  error_code: z.string().optional(),
  tag: z.string().optional(),
  category: z.string().optional(),
};
const Paging = {
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
};

async function runView(ctx: Pick<RouteContext<unknown, unknown, unknown>, 'services' | 'url'>, id: string): Promise<RunView> {
  const run = await ctx.services.stores.runs.getRun(id);
  if (!run) throw new NotFoundError('run', id);
  const stats = await ctx.services.stores.runStats.getRunStats(id);
  const { _etag, ...rest } = run;
  const trials = trialsOf(run.config);
  // a finished run's efficiency comes from the live statistics (folded as cards arrive); a scan of its scorecards
  // (400,000 of them took ~9 s per GET) only for statistics stored before efficiency was folded
  const folded = stats?.efficiency;
  const cardStats = await runCardStats(ctx.services.stores.scorecards.iterateScorecards(id), {
    trials,
    efficiency: TERMINAL_RUN_STATUSES.has(run.status) && !folded,
  });
  if (folded && TERMINAL_RUN_STATUSES.has(run.status)) cardStats.efficiency = folded;
  const health = await runHealth(ctx.services, run);
  const slo = await runSloCompliance(run, ctx.services.stores);
  return {
    ...rest,
    ...(slo ? { slo_compliance: slo } : {}),
    progress_pct: stats?.progress_pct ?? (run.status === 'completed' ? 100 : 0),
    stats: stats ?? null,
    ...cardStats,
    health,
    links: { self: `${ctx.url.origin}/api/v1/runs/${id}`, scorecards: `${ctx.url.origin}/api/v1/runs/${id}/scorecards` },
  };
}

export const createRunRoute = defineRoute({
  name: 'runs-create',
  method: 'POST',
  path: 'v1/runs',
  role: 'runner',
  tag: 'runs',
  summary: "Trigger a run of a suite against a target (or a client's suite and target)",
  body: CreateRunRequestSchema,
  response: RunViewSchema,
  responses: {
    202: 'run accepted and started',
    400: 'invalid body',
    409: 'run id exists',
    422: 'unknown suite, target, client or baseline, or a configuration that cannot work (target settings, stage-3 provider, cassette, judge), each error naming its field',
  },
  handler: async (ctx) => {
    const services = ctx.services;
    await requireAllowedOutboundUrls(services, [{ path: 'body.config.execution.base_url', url: ctx.body.config?.execution?.base_url }]);
    const run = await createRun(ctx.body, {
      stores: services.stores,
      clock: services.clock,
      check: (r, target) => checkRunConfig(r, target, services),
    });
    try {
      await ctx.orchestrations.start(run.id);
    } catch (err) {
      await ctx.services.stores.runs.updateRun(run.id, {
        status: 'failed',
        error: `could not start the orchestration: ${(err as Error).message}`,
      });
      throw err;
    }
    return { status: 202, headers: { location: `${ctx.url.origin}/api/v1/runs/${run.id}` }, body: await runView(ctx, run.id) };
  },
});

export const listRunsRoute = defineRoute({
  name: 'runs-list',
  method: 'GET',
  path: 'v1/runs',
  role: 'reader',
  tag: 'runs',
  summary: 'List runs, newest first, each with its headline statistics (pass rate, p95 latency, cost per case, counts)',
  query: z
    .object({
      client_id: z.string().optional(),
      suite_id: z.string().optional(),
      target_id: z.string().optional(),
      status: RunStatusSchema.optional(),
      created_after: z.iso.datetime({ offset: true }).optional(),
      created_before: z.iso.datetime({ offset: true }).optional(),
      ...Paging,
    })
    .strict(),
  response: pageSchemaOf(RunListItemSchema),
  responses: { 200: 'a page of runs' },
  handler: async ({ services, query }) => {
    const { limit, offset, ...filter } = query;
    const page = await services.stores.runs.listRuns(filter, { limit, offset });
    const items = await Promise.all(
      page.items.map(async ({ _etag, ...r }) => ({ ...r, headline: runHeadlineOf(await services.stores.runStats.getRunStats(r.id)) })),
    );
    return { status: 200, body: { ...page, items } };
  },
});

export const getRunRoute = defineRoute({
  name: 'runs-get',
  method: 'GET',
  path: 'v1/runs/{id}',
  role: 'reader',
  tag: 'runs',
  summary: 'A run with its status, progress, counts and stage pass rates',
  params: IdParams,
  response: RunViewSchema,
  responses: { 200: 'the run', 404: 'no such run' },
  handler: async (ctx) => ({ status: 200, body: await runView(ctx, ctx.params.id) }),
});

export const cancelRunRoute = defineRoute({
  name: 'runs-cancel',
  method: 'DELETE',
  path: 'v1/runs/{id}',
  role: 'platform-admin',
  tag: 'runs',
  summary: 'Cancel a pending or running run (its queued cases are skipped)',
  params: IdParams,
  response: RunViewSchema,
  responses: { 202: 'cancelled', 404: 'no such run', 409: 'the run already finished' },
  handler: async (ctx) => {
    const { stores, clock } = ctx.services;
    const run = await stores.runs.getRun(ctx.params.id);
    if (!run) throw new NotFoundError('run', ctx.params.id);
    const updated = await stores.runs.updateRun(
      run.id,
      { status: 'cancelled', completed_at: clock.now().toISOString() },
      { from: ['pending', 'running', 'stalled'] },
    );
    if (!updated) throw new ApiError(409, 'Conflict', `run ${run.id} is already ${run.status}`);
    await ctx.orchestrations.cancel(run.id);
    return { status: 202, body: await runView(ctx, run.id) };
  },
});

export const listScorecardsRoute = defineRoute({
  name: 'runs-scorecards',
  method: 'GET',
  path: 'v1/runs/{id}/scorecards',
  role: 'reader',
  tag: 'runs',
  summary: 'The scorecards of a run, paged, filtered by outcome, failing stage, error code, tag or category',
  params: IdParams,
  query: z
    .object({
      passed: z
        .enum(['true', 'false'])
        .transform((v) => v === 'true')
        .optional(),
      ...ScorecardFilterQuery,
      ...Paging,
    })
    .strict(),
  response: pageSchemaOf(ScorecardSchema),
  responses: { 200: 'a page of scorecards', 404: 'no such run' },
  handler: async ({ services, params, query }) => {
    if (!(await services.stores.runs.getRun(params.id))) throw new NotFoundError('run', params.id);
    const { limit, offset, ...filter } = query;
    return { status: 200, body: await services.stores.scorecards.listScorecards(params.id, filter, { limit, offset }) };
  },
});

export const listFailuresRoute = defineRoute({
  name: 'runs-failures',
  method: 'GET',
  path: 'v1/runs/{id}/failures',
  role: 'reader',
  tag: 'runs',
  summary: 'The failed cases of a run with their failing stage and diffs, paged; filter by failing stage, error code, category or tag',
  params: IdParams,
  query: z
    .object({
      ...ScorecardFilterQuery,
      ...Paging,
    })
    .strict(),
  response: pageSchemaOf(FailureViewSchema),
  responses: { 200: 'a page of failed cases', 404: 'no such run' },
  handler: async ({ services, params, query }) => {
    if (!(await services.stores.runs.getRun(params.id))) throw new NotFoundError('run', params.id);
    const { limit, offset, ...filter } = query;
    const page = await services.stores.scorecards.listScorecards(params.id, { ...filter, passed: false }, { limit, offset });
    return { status: 200, body: { ...page, items: page.items.map(failureView) } };
  },
});

export const retryFailuresRoute = defineRoute({
  name: 'runs-retry-failures',
  method: 'POST',
  path: 'v1/runs/{id}/retry-failures',
  role: 'runner',
  tag: 'runs',
  summary: 'Start a new run of the failed cases of a finished run (the original run is left as it was)',
  params: IdParams,
  body: z.object({ trigger_metadata: TriggerMetadataSchema }).strict().partial(),
  response: RunViewSchema,
  responses: {
    202: 'the retry run',
    404: 'no such run',
    409: 'the run has not finished or has no failures',
    422: 'the configuration cannot work any more (each error names its field)',
  },
  handler: async (ctx) => {
    const { stores, clock } = ctx.services;
    const parent = await stores.runs.getRun(ctx.params.id);
    if (!parent) throw new NotFoundError('run', ctx.params.id);
    if (!['completed', 'degraded', 'timed_out', 'cancelled'].includes(parent.status))
      throw new ApiError(409, 'Conflict', `run ${parent.id} is ${parent.status}; retry its failures once it has finished`);
    const failed = await stores.scorecards.countScorecards(parent.id, { passed: false });
    if (failed === 0) throw new ApiError(409, 'Conflict', `run ${parent.id} has no failed cases`);
    const run = await createRun(
      {
        suite_id: parent.suite_id,
        target_id: parent.target_id,
        ...(parent.client_id ? { client_id: parent.client_id } : {}),
        triggered_by: 'retry',
        trigger_metadata: ctx.body?.trigger_metadata ?? parent.trigger_metadata,
        config: parent.config,
        baseline_run_id: parent.id,
      },
      { stores, clock, parentRunId: parent.id, check: (r, target) => checkRunConfig(r, target, ctx.services) },
    );
    await ctx.orchestrations.start(run.id);
    return { status: 202, headers: { location: `${ctx.url.origin}/api/v1/runs/${run.id}` }, body: await runView(ctx, run.id) };
  },
});
