import { z } from 'zod';
import {
  BenchmarkCreateSchema,
  BenchmarkRunSchema,
  BenchmarkSchema,
  LeaderboardSchema,
  type Benchmark,
  type BenchmarkRun,
} from '../../domain/index.js';
import { createBenchmark, startBenchmarkRun } from '../../runs/index.js';
import { ConflictError, NotFoundError, type Stores, type WithEtag } from '../../ports/index.js';
import { requireAllowedOutboundUrls } from '../outboundUrls.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { pageSchemaOf } from '../schemas.js';
import { PagingQuery } from './entityRoutes.js';

const IdParams = z.object({ id: z.string().min(1) });
const RunParams = z.object({ id: z.string().min(1), run_id: z.string().min(1) });
const withoutEtag = <T>({ _etag, ...rest }: WithEtag<T>): T => rest as T;

export const createBenchmarkRoute = defineRoute({
  name: 'benchmarks-create',
  method: 'POST',
  path: 'v1/benchmarks',
  role: 'runner',
  tag: 'benchmarks',
  summary:
    'Create a benchmark: tasks (suite version x target or client x run config), dependencies between them (depends_on, optional pass-rate gate) and a parallelism limit; a cycle is refused naming it',
  body: BenchmarkCreateSchema,
  response: BenchmarkSchema,
  responses: {
    201: 'the benchmark',
    400: 'invalid body, each problem naming its field (duplicate task ids, unknown depends_on ids, "tasks: cycle a -> b -> a")',
    422: 'unknown suite, target, client or suite version (naming tasks.<i>.<field>), or a base_url the outbound policy refuses',
  },
  handler: async ({ services, body, principal, url }) => {
    // a task's execution base_url is checked against the outbound policy as a run's is
    await requireAllowedOutboundUrls(
      services,
      body.tasks.map((t, i) => ({ path: `body.tasks.${i}.config.execution.base_url`, url: t.config?.execution?.base_url })),
    );
    const benchmark = await createBenchmark(body, { ...services, createdBy: principal?.name ?? 'anonymous' });
    return { status: 201, headers: { location: `${url.origin}/api/v1/benchmarks/${benchmark.id}` }, body: benchmark };
  },
});

export const listBenchmarksRoute = defineRoute({
  name: 'benchmarks-list',
  method: 'GET',
  path: 'v1/benchmarks',
  role: 'reader',
  tag: 'benchmarks',
  summary: 'List benchmarks by id, paged',
  query: PagingQuery,
  response: pageSchemaOf(BenchmarkSchema),
  responses: { 200: 'a page of benchmarks', 400: 'invalid paging' },
  handler: async ({ services, query }) => {
    const page = await services.stores.benchmarks.list({ limit: query.limit, offset: query.offset });
    return { status: 200, body: { ...page, items: page.items.map((b) => withoutEtag<Benchmark>(b)) } };
  },
});

export const getBenchmarkRoute = defineRoute({
  name: 'benchmarks-get',
  method: 'GET',
  path: 'v1/benchmarks/{id}',
  role: 'reader',
  tag: 'benchmarks',
  summary: 'One benchmark definition',
  params: IdParams,
  response: BenchmarkSchema,
  responses: { 200: 'the benchmark', 404: 'no such benchmark' },
  handler: async ({ services, params }) => {
    const benchmark = await services.stores.benchmarks.get(params.id);
    if (!benchmark) throw new NotFoundError('benchmark', params.id);
    return { status: 200, body: withoutEtag<Benchmark>(benchmark) };
  },
});

export const startBenchmarkRunRoute = defineRoute({
  name: 'benchmarks-run',
  method: 'POST',
  path: 'v1/benchmarks/{id}/runs',
  role: 'runner',
  tag: 'benchmarks',
  summary:
    'Start a benchmark run: the orchestrator runs each task as an ordinary run (a sub-orchestration) as the dependency graph allows, at most `parallelism` at once; a task whose dependency failed is skipped with the reason',
  params: IdParams,
  response: BenchmarkRunSchema,
  responses: { 202: 'the benchmark run, every task pending', 404: 'no such benchmark' },
  handler: async ({ services, params, principal, orchestrations, url }) => {
    const run = await startBenchmarkRun(params.id, {
      ...services,
      createdBy: principal?.name ?? 'anonymous',
      startOrchestration: (id) => orchestrations.startBenchmark(id),
    });
    return { status: 202, headers: { location: `${url.origin}/api/v1/benchmarks/${params.id}/runs/${run.id}` }, body: run };
  },
});

async function benchmarkRunOf(
  services: { stores: Pick<Stores, 'benchmarkRuns'> },
  params: z.infer<typeof RunParams>,
): Promise<BenchmarkRun> {
  const run = await services.stores.benchmarkRuns.get(params.run_id);
  if (!run || run.benchmark_id !== params.id) throw new NotFoundError('benchmark run', `${params.id}/${params.run_id}`);
  return withoutEtag<BenchmarkRun>(run);
}

export const getBenchmarkRunRoute = defineRoute({
  name: 'benchmarks-run-get',
  method: 'GET',
  path: 'v1/benchmarks/{id}/runs/{run_id}',
  role: 'reader',
  tag: 'benchmarks',
  summary:
    'One benchmark run: status (running, completed, partially_failed, failed), per-task status with run id, pass rate and the reason of a failure or skip, and the leaderboard once finished',
  params: RunParams,
  response: BenchmarkRunSchema,
  responses: { 200: 'the benchmark run', 404: 'no such benchmark run of this benchmark' },
  handler: async ({ services, params }) => ({ status: 200, body: await benchmarkRunOf(services, params) }),
});

export const getBenchmarkLeaderboardRoute = defineRoute({
  name: 'benchmarks-run-leaderboard',
  method: 'GET',
  path: 'v1/benchmarks/{id}/runs/{run_id}/leaderboard',
  role: 'reader',
  tag: 'benchmarks',
  summary:
    'The leaderboard of a finished benchmark run over its clients or targets, each case counted once per participant (from its most complete run): pass rate with a 95% Wilson interval, latency p50/p95, cost spent by all its runs, passes per dollar, and the best-accuracy, best-latency and best-cost-efficiency badges',
  params: RunParams,
  response: LeaderboardSchema,
  responses: { 200: 'the leaderboard', 404: 'no such benchmark run', 409: 'the benchmark run has not finished' },
  handler: async ({ services, params }) => {
    const run = await benchmarkRunOf(services, params);
    if (!run.leaderboard)
      throw new ConflictError('benchmark run', run.id, 'has not finished yet: the leaderboard comes with its last task');
    return { status: 200, body: run.leaderboard };
  },
});

export const listBenchmarkRunsRoute = defineRoute({
  name: 'benchmarks-runs-list',
  method: 'GET',
  path: 'v1/benchmarks/{id}/runs',
  role: 'reader',
  tag: 'benchmarks',
  summary: 'The runs of a benchmark, newest first',
  params: IdParams,
  response: z.object({ items: z.array(BenchmarkRunSchema) }).strict(),
  responses: { 200: 'the runs of the benchmark', 404: 'no such benchmark' },
  handler: async ({ services, params }) => {
    if (!(await services.stores.benchmarks.get(params.id))) throw new NotFoundError('benchmark', params.id);
    const items: BenchmarkRun[] = [];
    for (let offset = 0; ;) {
      const page = await services.stores.benchmarkRuns.list({ limit: 1000, offset });
      for (const r of page.items) if (r.benchmark_id === params.id) items.push(withoutEtag<BenchmarkRun>(r));
      if (!page.has_more) break;
      offset += page.items.length;
    }
    items.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    return { status: 200, body: { items } };
  },
});

/** Benchmarks: create, list, read; start a run, list runs, read a run and its leaderboard (runner writes, reader reads). */
export const BENCHMARK_ROUTES: readonly RouteDefinition[] = [
  createBenchmarkRoute,
  listBenchmarksRoute,
  getBenchmarkRoute,
  startBenchmarkRunRoute,
  listBenchmarkRunsRoute,
  getBenchmarkRunRoute,
  getBenchmarkLeaderboardRoute,
];
