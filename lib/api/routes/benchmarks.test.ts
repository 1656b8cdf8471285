import { beforeAll, describe, expect, it } from 'vitest';
import { demoRunConfig } from '../../app/demo.js';
import { latencyPercentile, type BenchmarkRun } from '../../domain/index.js';
import { wilsonInterval } from '../../statistics/index.js';
import { HOSTILE_CASE_ID, RETAIL_DIR } from '../../reports/testing/retailPlatform.test-helpers.js';
import { retailApiForTests } from './retailApi.test-helpers.js';

const api = retailApiForTests();
const call = api.call;
const SUITE = 'retail-bench-small';
// eight retail cases, one of them (retail-0025) failed by simulated model B (schema violation)
const CASES = ['retail-0001', 'retail-0002', 'retail-0003', 'retail-0004', 'retail-0005', 'retail-0006', 'retail-0007', HOSTILE_CASE_ID];

beforeAll(async () => {
  const { clock, stores } = api.retail.platform.services;
  const now = clock.now().toISOString();
  await stores.suites.create({
    id: SUITE,
    name: 'small retail suite',
    kind: 'static',
    test_case_ids: CASES,
    created_at: now,
    updated_at: now,
  });
}, 60_000);

const config = demoRunConfig(RETAIL_DIR);
const task = (id: string, target: string, extra: Record<string, unknown> = {}) => ({
  id,
  suite_id: SUITE,
  target_id: target,
  config,
  ...extra,
});

/** The most task runs whose [started_at, finished_at] intervals overlap at one instant. */
function observedMaxConcurrency(run: BenchmarkRun): number {
  const edges = run.tasks
    .filter((t) => t.started_at && t.finished_at)
    .flatMap((t) => [
      { at: Date.parse(t.started_at!), d: 1 },
      { at: Date.parse(t.finished_at!), d: -1 },
    ])
    .sort((a, b) => a.at - b.at || a.d - b.d);
  let now = 0;
  let max = 0;
  for (const e of edges) max = Math.max(max, (now += e.d));
  return max;
}

async function waitForBenchmarkRun(benchmarkId: string, runId: string): Promise<BenchmarkRun> {
  const until = Date.now() + 150_000;
  for (;;) {
    const run = (await call('GET', `v1/benchmarks/${benchmarkId}/runs/${runId}`)).json as BenchmarkRun;
    if (run.status !== 'running') return run;
    if (Date.now() > until) throw new Error(`benchmark run ${runId} still running: ${JSON.stringify(run.tasks)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('/api/v1/benchmarks', () => {
  it('refuses a cycle naming it, unknown dependencies and duplicate ids (problem+json naming the field); readers cannot create', async () => {
    const cycle = await call('POST', 'v1/benchmarks', {
      name: 'cyclic',
      tasks: [
        task('a', 'simulated-model-a', { depends_on: ['c'] }),
        task('b', 'simulated-model-a', { depends_on: ['a'] }),
        task('c', 'simulated-model-a', { depends_on: ['b'] }),
      ],
    });
    expect(cycle.status).toBe(400);
    expect(cycle.type).toMatch(/application\/problem\+json/);
    expect(cycle.json.errors).toContainEqual({ path: 'body.tasks', message: 'cycle a -> c -> b -> a' });
    expect(cycle.json.detail).toContain('body.tasks: cycle a -> c -> b -> a');

    const unknown = await call('POST', 'v1/benchmarks', {
      name: 'bad',
      tasks: [task('a', 'simulated-model-a'), task('a', 'simulated-model-b', { depends_on: ['nope'] })],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors).toEqual(
      expect.arrayContaining([
        { path: 'body.tasks.1.id', message: 'duplicate task id "a"' },
        { path: 'body.tasks.1.depends_on.0', message: 'unknown task id "nope"' },
      ]),
    );
    const missingTarget = await call('POST', 'v1/benchmarks', { name: 'x', tasks: [task('a', 'no-such-target')] });
    expect(missingTarget.status).toBe(422);
    expect(missingTarget.json.errors).toEqual([{ path: 'body.tasks.0.target_id', message: 'does not exist' }]);
    expect((await call('POST', 'v1/benchmarks', { name: 'x', tasks: [task('a', 'simulated-model-a')] }, api.readerKey)).status).toBe(403);
    expect((await call('GET', 'v1/benchmarks/nope')).status).toBe(404);
    expect((await call('POST', 'v1/benchmarks/nope/runs')).status).toBe(404);
  });

  it('runs a 3-task DAG: the gated task fails, its dependent is skipped with the reason, the independent one completes; parallelism 1 holds; the leaderboard matches the runs', async () => {
    const created = await call('POST', 'v1/benchmarks', {
      name: 'retail smoke then full (simulated models)',
      parallelism: 1,
      tasks: [
        task('smoke-b', 'simulated-model-b', { gate: { min_pass_rate: 1 } }),
        task('full-b', 'simulated-model-b', { depends_on: ['smoke-b'] }),
        task('model-a', 'simulated-model-a'),
      ],
    });
    expect(created.status).toBe(201);
    const benchmark = created.json;
    expect(benchmark).toMatchObject({ parallelism: 1, tasks: [{ id: 'smoke-b', suite_version: 'latest', depends_on: [] }, {}, {}] });
    expect((await call('GET', 'v1/benchmarks', undefined, api.readerKey)).json.items.map((b: { id: string }) => b.id)).toContain(
      benchmark.id,
    );

    const started = await call('POST', `v1/benchmarks/${benchmark.id}/runs`);
    expect(started.status).toBe(202);
    expect(started.json.status).toBe('running');
    expect(started.json.tasks.map((t: { status: string }) => t.status)).toEqual(['pending', 'pending', 'pending']);
    const early = await call('GET', `v1/benchmarks/${benchmark.id}/runs/${started.json.id}/leaderboard`);
    if (early.status !== 200) expect(early.status).toBe(409);

    const run = await waitForBenchmarkRun(benchmark.id, started.json.id);
    expect(run.status).toBe('partially_failed');
    const byId = Object.fromEntries(run.tasks.map((t) => [t.task_id, t]));
    expect(byId['smoke-b']!.status).toBe('failed');
    expect(byId['smoke-b']!.run_status).toBe('completed');
    expect(byId['smoke-b']!.reason).toMatch(/^pass rate \d+\.\d% \(\d+ of 8 scored\) below the gate 100\.0%$/);
    expect(byId['full-b']!).toMatchObject({ status: 'skipped', run_id: null, started_at: null });
    expect(byId['full-b']!.reason).toBe(`dependency "smoke-b" failed: ${byId['smoke-b']!.reason}`);
    expect(byId['model-a']!).toMatchObject({ status: 'completed', reason: null, run_status: 'completed', scored: 8 });
    expect(observedMaxConcurrency(run)).toBe(1);

    // each task ran as an ordinary run, named by its benchmark and evaluated by the run orchestrator
    const runA = (await call('GET', `v1/runs/${byId['model-a']!.run_id}`)).json;
    const runB = (await call('GET', `v1/runs/${byId['smoke-b']!.run_id}`)).json;
    expect(runA.trigger_metadata).toEqual({ benchmark_id: benchmark.id, benchmark_run_id: run.id, benchmark_task: 'model-a' });
    expect([runA.status, runB.status, runA.total_cases, runB.total_cases]).toEqual(['completed', 'completed', 8, 8]);

    // the leaderboard against the runs' own statistics and scorecards
    const board = (await call('GET', `v1/benchmarks/${benchmark.id}/runs/${run.id}/leaderboard`, undefined, api.readerKey)).json;
    expect(board).toEqual(run.leaderboard);
    expect(board.entries.map((e: { participant: string }) => e.participant).sort()).toEqual(['simulated-model-a', 'simulated-model-b']);
    for (const [target, r] of [
      ['simulated-model-a', runA],
      ['simulated-model-b', runB],
    ] as const) {
      const entry = board.entries.find((e: { participant: string }) => e.participant === target);
      const cards = (await call('GET', `v1/runs/${r.id}/scorecards?limit=100`)).json.items as {
        overall_passed: boolean;
        latency_ms: number;
        estimated_cost_usd: number;
      }[];
      const passed = cards.filter((c) => c.overall_passed).length;
      expect(entry).toMatchObject({
        kind: 'target',
        task_ids: [target === 'simulated-model-a' ? 'model-a' : 'smoke-b'],
        scored: 8,
        passed,
      });
      expect(entry.scored).toBe(r.stats.scored);
      expect(entry.passed).toBe(r.stats.passed);
      const wilson = wilsonInterval(passed, 8);
      expect(entry.pass_rate.estimate).toBeCloseTo(passed / 8, 12);
      expect(entry.pass_rate.lower).toBeCloseTo(wilson.lower, 12);
      expect(entry.pass_rate.upper).toBeCloseTo(wilson.upper, 12);
      expect(entry.latency_p50_ms).toBe(
        latencyPercentile(
          cards.map((c) => c.latency_ms),
          0.5,
        ),
      );
      expect(entry.latency_p95_ms).toBe(r.stats.latency_ms.p95);
      const cost = cards.reduce((s, c) => s + c.estimated_cost_usd, 0);
      expect(entry.cost_usd).toBeCloseTo(cost, 12);
      expect(entry.accuracy_per_dollar).toBe(cost > 0 ? passed / entry.cost_usd : null);
    }
    expect(board.best_accuracy.length).toBeGreaterThan(0);
    expect(board.entries[0].badges).toContain('best_accuracy');

    const runs = (await call('GET', `v1/benchmarks/${benchmark.id}/runs`)).json.items;
    expect(runs.map((r: { id: string }) => r.id)).toEqual([run.id]);
    expect((await call('GET', `v1/benchmarks/other/runs/${run.id}`)).status).toBe(404);
  }, 200_000);
  it('parallelism 2 over independent tasks: never more than 2 at once, all complete; a task whose run cannot be created fails and its dependent is skipped', async () => {
    const created = await call('POST', 'v1/benchmarks', {
      name: 'wide',
      parallelism: 2,
      tasks: [
        task('a', 'simulated-model-a'),
        task('b', 'simulated-model-b'),
        task('a2', 'simulated-model-a', { config: { profile: 'ci' } }),
        // the recorded stage-3 provider without a cassette: the run is refused by the configuration check
        task('broken', 'simulated-model-a', { config: { execution: { enabled: true, provider: 'recorded' } } }),
        task('after-broken', 'simulated-model-a', { depends_on: ['broken'] }),
      ],
    });
    expect(created.status).toBe(201);
    const started = await call('POST', `v1/benchmarks/${created.json.id}/runs`);
    const run = await waitForBenchmarkRun(created.json.id, started.json.id);
    const byId = Object.fromEntries(run.tasks.map((t) => [t.task_id, t]));
    expect(['a', 'b', 'a2'].map((id) => byId[id]!.status)).toEqual(['completed', 'completed', 'completed']);
    expect(byId['broken']!).toMatchObject({ status: 'failed', run_id: null });
    expect(byId['broken']!.reason).toMatch(/^its run could not be created: the run's configuration cannot work: .*cassette_path/);
    expect(byId['after-broken']!).toMatchObject({ status: 'skipped', reason: `dependency "broken" failed: ${byId['broken']!.reason}` });
    expect(run.status).toBe('partially_failed');
    const concurrency = observedMaxConcurrency(run);
    expect(concurrency).toBeGreaterThanOrEqual(1);
    expect(concurrency).toBeLessThanOrEqual(2);
    // model A's two tasks make one participant, over the same 8 cases: each counted once, cost is both runs' spend
    const a = run.leaderboard!.entries.find((e) => e.participant === 'simulated-model-a')!;
    expect(a).toMatchObject({ task_ids: ['a', 'a2'], scored: 8 });
    let spent = 0;
    for (const id of ['a', 'a2'])
      for (const card of (await call('GET', `v1/runs/${byId[id]!.run_id}/scorecards?limit=100`)).json.items as {
        estimated_cost_usd: number;
      }[])
        spent += card.estimated_cost_usd;
    expect(a.cost_usd).toBeCloseTo(spent, 12);
    expect(a.accuracy_per_dollar).toBeCloseTo(a.passed / spent, 9);
  }, 200_000);
  it('12 one-case tasks at parallelism 4 all complete: a task finishing while another is settled is not lost (Task.any over a completed task never resumes)', async () => {
    const now = api.retail.platform.services.clock.now().toISOString();
    await api.retail.platform.services.stores.suites.create({
      id: 'one-case',
      name: 'one case',
      kind: 'static',
      test_case_ids: ['retail-0001'],
      created_at: now,
      updated_at: now,
    });
    const created = await call('POST', 'v1/benchmarks', {
      name: 'many small',
      parallelism: 4,
      tasks: Array.from({ length: 12 }, (_, i) => ({
        id: `t${i}`,
        suite_id: 'one-case',
        target_id: i % 2 ? 'simulated-model-a' : 'simulated-model-b',
        config,
      })),
    });
    const started = await call('POST', `v1/benchmarks/${created.json.id}/runs`);
    const run = await waitForBenchmarkRun(created.json.id, started.json.id);
    expect(run.tasks.map((t) => t.status)).toEqual(Array(12).fill('completed'));
    expect(run.status).toBe('completed');
    expect(observedMaxConcurrency(run)).toBeLessThanOrEqual(4);
    // six one-case runs per model on the same case: that case counts once per model
    expect(run.leaderboard!.entries.map((e) => [e.task_ids.length, e.scored])).toEqual([
      [6, 1],
      [6, 1],
    ]);
  }, 200_000);
});
