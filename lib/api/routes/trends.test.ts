import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSchema, type Run } from '../../domain/index.js';
import { makeOutcome } from '../../domain/stats/outcomes.test-helpers.js';
import { sampleAlert } from '../../ports/contracts/alertStore.contract.js';
import { QUEUES } from '../../runs/queues.js';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';

let t: TestApi;

function run(id: string, fields: Partial<Run>): Run {
  return RunSchema.parse({
    id,
    client_id: 'acme',
    suite_id: 'smoke',
    target_id: 'model-a',
    status: 'completed',
    config: {},
    triggered_by: 'schedule',
    baseline_run_id: null,
    total_cases: 4,
    shard_count: 1,
    created_at: '2026-03-01T02:00:00.000Z',
    started_at: null,
    completed_at: null,
    deadline_at: '2026-03-02T02:00:00.000Z',
    ...fields,
  });
}

/** four cases per run: `passed` of them pass; latencies 100, 200, 300, 400 ms x `slow`; $0.01 each */
async function seed(r: Run, passed: number, slow = 1): Promise<void> {
  await t.platform.services.stores.runs.createRun(r);
  const outcomes = [0, 1, 2, 3].map((i) =>
    makeOutcome({
      run_id: r.id,
      test_case_id: `c${i}`,
      overall_passed: i < passed,
      latency_ms: (i + 1) * 100 * slow,
      estimated_cost_usd: 0.01,
    }),
  );
  await t.platform.services.stores.runStats.applyOutcomes(outcomes, new Map([[r.id, 4]]));
}

beforeAll(async () => {
  t = await startTestApi();
  await seed(run('n1', { created_at: '2026-03-01T02:00:00.000Z' }), 4);
  await seed(run('n2', { created_at: '2026-03-02T02:00:00.000Z' }), 3, 2);
  await seed(run('n2b', { created_at: '2026-03-02T14:00:00.000Z', target_id: 'model-b' }), 1);
  await seed(run('n3', { created_at: '2026-03-03T02:00:00.000Z' }), 2);
  await seed(run('g1', { client_id: 'globex', created_at: '2026-03-02T03:00:00.000Z' }), 4);
  await seed(run('adhoc', { client_id: null, created_at: '2026-03-02T05:00:00.000Z' }), 0);
  await seed(run('live', { status: 'running', created_at: '2026-03-03T05:00:00.000Z' }), 1);
  await seed(run('old', { created_at: '2025-12-01T02:00:00.000Z' }), 4);
  await t.platform.services.stores.alerts.createAlert(
    sampleAlert('n3', 'accuracy', { client_id: 'acme', created_at: '2026-03-03T03:00:00.000Z' }),
  );
  await t.platform.services.stores.alerts.createAlert(
    sampleAlert('old', 'accuracy', { client_id: 'acme', created_at: '2025-12-01T03:00:00.000Z' }),
  );
}, 60_000);

afterAll(async () => t?.stop());

describe('GET /v1/runs headline statistics', () => {
  it('carries pass rate, p95, cost per case and counts of every run, null for a run without statistics', async () => {
    await t.platform.services.stores.runs.createRun(
      run('fresh', { status: 'pending', client_id: 'initech', created_at: '2026-03-04T00:00:00.000Z' }),
    );
    const page = await t.call('GET', 'v1/runs?client_id=acme&limit=2');
    expect(page.status).toBe(200);
    expect(page.json.items.map((r: Run) => r.id)).toEqual(['live', 'n3']);
    expect(page.json.items[1].headline).toEqual({
      total: 4,
      completed: 4,
      passed: 2,
      failed: 2,
      progress_pct: 100,
      pass_rate: 0.5,
      p95_latency_ms: expect.any(Number),
      cost_per_case_usd: 0.01,
    });
    expect(page.json.items[1].headline.p95_latency_ms).toBeGreaterThanOrEqual(300);
    expect(page.json.items[1].headline.p95_latency_ms).toBeLessThanOrEqual(400);
    expect(page.json.items[0].headline).toMatchObject({ completed: 4, passed: 1, progress_pct: 100 });
    const fresh = await t.call('GET', 'v1/runs?client_id=initech');
    expect(fresh.json.items).toEqual([expect.objectContaining({ id: 'fresh', headline: null })]);
  });
});

describe('GET /v1/trends', () => {
  it('aggregates completed runs per client and day: pooled pass rate with interval, worst p95, cost per case; alerts of those runs', async () => {
    const r = await t.call('GET', 'v1/trends?from=2026-03-01&to=2026-03-03');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ from: '2026-03-01', to: '2026-03-03', group_by: 'client', runs: 6 });
    expect(r.json.series.map((s: { client_id: string | null }) => s.client_id)).toEqual(['acme', 'globex', null]);
    const acme = r.json.series[0];
    expect(
      acme.points.map((p: { date: string; runs: number; cases: number; passed: number; pass_rate: number }) => [
        p.date,
        p.runs,
        p.cases,
        p.passed,
        p.pass_rate,
      ]),
    ).toEqual([
      ['2026-03-01', 1, 4, 4, 1],
      ['2026-03-02', 2, 8, 4, 0.5],
      ['2026-03-03', 1, 4, 2, 0.5],
    ]);
    const day2 = acme.points[1];
    expect(day2.run_ids).toEqual(['n2', 'n2b']);
    expect(day2.cost_per_case_usd).toBeCloseTo(0.01, 10);
    // the worse of the two runs: n2 is twice as slow
    const n2 = (await t.call('GET', 'v1/runs/n2')).json.stats.latency_ms.p95;
    expect(n2).toBeGreaterThan((await t.call('GET', 'v1/runs/n2b')).json.stats.latency_ms.p95);
    expect(day2.p95_latency_ms).toBe(n2);
    expect(day2.pass_rate_interval.lower).toBeLessThan(0.5);
    expect(day2.pass_rate_interval.upper).toBeGreaterThan(0.5);
    expect(r.json.alerts.map((a: { id: string }) => a.id)).toEqual(['n3:accuracy']);
  });

  it('splits by suite and target on request, and filters by client', async () => {
    const r = await t.call('GET', 'v1/trends?from=2026-03-01&to=2026-03-03&client_id=acme&group_by=client_suite_target');
    expect(r.json.series.map((s: object) => ({ ...s, points: undefined }))).toEqual([
      { client_id: 'acme', suite_id: 'smoke', target_id: 'model-a', points: undefined },
      { client_id: 'acme', suite_id: 'smoke', target_id: 'model-b', points: undefined },
    ]);
    expect(r.json.series[1].points).toEqual([expect.objectContaining({ date: '2026-03-02', run_ids: ['n2b'], pass_rate: 0.25 })]);
  });

  it.each<[string, string]>([
    ['from after to', 'from=2026-03-05&to=2026-03-01'],
    ['a range over 366 days', 'from=2024-01-01&to=2026-03-01'],
    ['a malformed date', 'from=March'],
    ['an unknown grouping', 'group_by=team'],
  ])('answers 400 naming the field for %s', async (_, qs) => {
    const r = await t.call('GET', `v1/trends?${qs}`);
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.json.errors[0].path).toMatch(/^query\.(from|group_by)$/);
  });
});

describe('GET /v1/me', () => {
  it('names the caller and its roles, 401 without a key', async () => {
    const me = await t.call('GET', 'v1/me', { key: t.keys['test-admin'] });
    expect(me.status).toBe(200);
    expect(me.json).toEqual({
      id: expect.any(String),
      name: 'test-admin-key',
      kind: 'api-key',
      roles: ['test-admin'],
      organization: 'default',
    });
    expect((await t.call('GET', 'v1/me', { key: null })).status).toBe(401);
  });
});

describe('dead letters', () => {
  it("lists and replays a stage queue's dead letters for platform-admin only", async () => {
    const engine = t.platform.host.queues;
    // expired at once: the next receive (the judge trigger's or this one) dead-letters it
    engine.send(QUEUES.judge, [{ messageId: 'm-1', body: { runId: 'x', caseId: 'y' }, timeToLiveMs: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    engine.receive(QUEUES.judge, { maxMessages: 0 + 1 }).forEach((m) => engine.abandon([m.lockToken]));
    expect((await t.call('GET', `v1/dead-letters/${QUEUES.judge}`, { key: t.keys.reader })).status).toBe(403);
    const list = await t.call('GET', `v1/dead-letters/${QUEUES.judge}`, { key: t.keys['platform-admin'] });
    expect(list.status).toBe(200);
    // whichever comes first dead-letters it: the expiry, or the judge worker refusing a body that is no case message
    expect(list.json.items).toEqual([
      expect.objectContaining({
        message_id: 'm-1',
        reason: expect.stringMatching(/^(TTLExpiredException|InvalidMessage)$/),
        description: expect.any(String),
        body: { runId: 'x', caseId: 'y' },
      }),
    ]);
    const replay = await t.call('POST', `v1/dead-letters/${QUEUES.judge}/replay`, {
      key: t.keys['platform-admin'],
      body: { message_ids: ['m-1', 'm-404'] },
    });
    expect(replay.json).toEqual({ queue: QUEUES.judge, replayed: 1, not_found: ['m-404'] });
    const bad = await t.call('GET', 'v1/dead-letters/nope', { key: t.keys['platform-admin'] });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].path).toBe('params.queue');
  });
});
