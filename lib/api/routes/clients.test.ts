import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, type Run } from '../../domain/index.js';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';

let api: TestApi;
let admin: string;
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);
const nightly = {
  id: 'nightly',
  name: 'Nightly team',
  suite_ids: ['s1', 's2'],
  target_id: 't1',
  schedule_cron: '0 0 2 * * *',
  notify: [{ kind: 'webhook', url: 'https://hooks.example.com/x', format: 'slack' }],
};

beforeAll(async () => {
  api = await startTestApi();
  admin = api.keys['platform-admin'];
  const { stores, clock } = api.platform.services;
  const now = clock.now().toISOString();
  for (const id of ['s1', 's2'])
    await stores.suites.upsert({ id, name: id, kind: 'static', test_case_ids: [], created_at: now, updated_at: now });
  for (const id of ['t1', 't2']) {
    await stores.targets.upsert({
      id,
      name: id,
      settings: { kind: 'replay', outputs_path: 'o.jsonl' },
      client_type: 'custom',
      timeout_ms: 1000,
      max_retries: 0,
      rate_limit: { requests_per_second: 1, max_in_flight: 1 },
      created_at: now,
      updated_at: now,
    });
  }
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

describe('clients CRUD', () => {
  it('creates a client: 201, Location, ETag, server timestamps', async () => {
    const r = await api.call('POST', 'v1/clients', { key: admin, body: { ...nightly, thresholds: { accuracy_drop_critical_pts: 10 } } });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${api.platform.url}/api/v1/clients/nightly`);
    expect(r.json).toEqual({
      ...nightly,
      thresholds: {
        accuracy_drop_warning_pts: 2,
        accuracy_drop_critical_pts: 10,
        p95_latency_ratio_warning: 1.5,
        p95_latency_ratio_critical: 2,
        cost_per_case_ratio_warning: 1.2,
        cost_per_case_ratio_critical: 1.5,
        criterion_drop_warning: 0.25,
        criterion_drop_critical: 0.5,
        alpha: 0.05,
      },
      created_at: ISO,
      updated_at: ISO,
    });
    const got = await api.call('GET', 'v1/clients/nightly');
    expect([got.status, got.json, got.headers.get('etag')]).toEqual([200, r.json, r.headers.get('etag')]);
  });

  it.each<[string, string, RegExp]>([
    ['five fields', '0 2 * * *', /has 5 field\(s\).*prepend the seconds, e\.g\. "0 0 2 \* \* \*"/],
    ['a TimeSpan', '01:00:00', /TimeSpan intervals are not client schedules/],
    ['an hour out of range', '0 0 25 * * *', /the hour field "25" is not valid/],
    ['a day that never comes', '0 0 2 30 2 *', /never fires/],
    ['every second', '* * * * * *', /the second field "\*" must be one number/],
  ])('400 for a schedule with %s, with a helpful message', async (_why, cron, message) => {
    const r = await api.call('POST', 'v1/clients', { key: admin, body: { ...nightly, id: 'x', schedule_cron: cron } });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([{ path: 'body.schedule_cron', message: expect.stringMatching(message) }]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['no suites', { suite_ids: [] }, ['body.suite_ids']],
    ['a bad webhook URL', { notify: [{ kind: 'webhook', url: 'not a url' }] }, ['body.notify.0.url']],
    ['a bad threshold', { thresholds: { alpha: 2 } }, ['body.thresholds.alpha']],
    ['an unknown field', { owner: 'me' }, ['body']],
    ['a server field', { created_at: '2024-01-01T00:00:00Z' }, ['body']],
  ])('400 for %s', async (_why, patch, paths) => {
    const r = await api.call('POST', 'v1/clients', { key: admin, body: { ...nightly, id: 'x', ...patch } });
    expect([r.status, r.json.errors.map((e: { path: string }) => e.path)]).toEqual([400, paths]);
  });

  it('422 names each unknown suite and the unknown target; nothing is stored', async () => {
    const r = await api.call('POST', 'v1/clients', {
      key: admin,
      body: { ...nightly, id: 'x', suite_ids: ['s1', 'nope'], target_id: 'gone' },
    });
    expect(r.status).toBe(422);
    expect(r.json.errors).toEqual([{ path: 'body.suite_ids.1', message: 'test suite "nope" does not exist' }]);
    const t = await api.call('POST', 'v1/clients', { key: admin, body: { ...nightly, id: 'x', target_id: 'gone' } });
    expect([t.status, t.json.errors]).toEqual([422, [{ path: 'body.target_id', message: 'target system "gone" does not exist' }]]);
    expect((await api.call('GET', 'v1/clients/x')).status).toBe(404);
  });

  it('409 for an existing id', async () => {
    expect((await api.call('POST', 'v1/clients', { key: admin, body: nightly })).status).toBe(409);
  });

  it('PUT replaces (If-Match, 412 when stale, 422 for a bad reference, 404 when missing)', async () => {
    const before = await api.call('GET', 'v1/clients/nightly');
    const { id: _id, ...fields } = nightly;
    const put = await api.call('PUT', 'v1/clients/nightly', {
      key: admin,
      headers: { 'if-match': before.headers.get('etag')! },
      body: { ...fields, target_id: 't2', config_overrides: { profile: 'ci' } },
    });
    expect([put.status, put.json]).toEqual([
      200,
      {
        ...fields,
        id: 'nightly',
        target_id: 't2',
        config_overrides: { profile: 'ci' },
        created_at: before.json.created_at,
        updated_at: ISO,
      },
    ]);
    expect(
      (await api.call('PUT', 'v1/clients/nightly', { key: admin, headers: { 'if-match': before.headers.get('etag')! }, body: fields }))
        .status,
    ).toBe(412);
    expect((await api.call('PUT', 'v1/clients/nightly', { key: admin, body: { ...fields, suite_ids: ['zzz'] } })).status).toBe(422);
    expect((await api.call('PUT', 'v1/clients/none', { key: admin, body: fields })).status).toBe(404);
  });

  it('roles: 401 without a key, 403 for suite-admin writes, reader reads', async () => {
    expect((await api.call('GET', 'v1/clients', { key: null })).status).toBe(401);
    expect((await api.call('POST', 'v1/clients', { key: api.keys['suite-admin'], body: { ...nightly, id: 'y' } })).status).toBe(403);
    expect((await api.call('DELETE', 'v1/clients/nightly', { key: api.keys['test-admin'] })).status).toBe(403);
    expect((await api.call('GET', 'v1/clients/nightly/runs', { key: api.keys.reader })).status).toBe(200);
  });

  it('a suite and a target a client uses cannot be deleted', async () => {
    expect((await api.call('DELETE', 'v1/test-suites/s2', { key: api.keys['suite-admin'] })).status).toBe(409);
    expect((await api.call('DELETE', 'v1/target-systems/t2', { key: admin })).status).toBe(409);
  });
});

describe('GET /clients/{id}/runs', () => {
  it("pages the client's runs newest first, filtered by status; 404 for an unknown client", async () => {
    const { stores } = api.platform.services;
    const run = (id: string, minute: number, client: string, status: Run['status']): Run => ({
      id,
      client_id: client,
      suite_id: 's1',
      target_id: 't1',
      status,
      config: resolveEvaluationConfig({}),
      triggered_by: 'schedule',
      trigger_metadata: {},
      baseline_run_id: null,
      parent_run_id: null,
      total_cases: 0,
      shard_count: 0,
      created_at: `2026-01-01T00:0${minute}:00.000Z`,
      started_at: null,
      completed_at: null,
      deadline_at: '2026-01-02T00:00:00.000Z',
      error: null,
      notes: [],
    });
    for (const [id, minute, client, status] of [
      ['r1', 1, 'nightly', 'completed'],
      ['r2', 2, 'other', 'completed'],
      ['r3', 3, 'nightly', 'failed'],
      ['r4', 4, 'nightly', 'completed'],
    ] as const) {
      await stores.runs.createRun(run(id, minute, client, status));
    }
    const page = await api.call('GET', 'v1/clients/nightly/runs?limit=2');
    expect(page.status).toBe(200);
    expect({ ...page.json, items: page.json.items.map((r: Run) => r.id) }).toEqual({
      items: ['r4', 'r3'],
      total: 3,
      has_more: true,
      limit: 2,
      offset: 0,
    });
    expect(page.json.items[0]).not.toHaveProperty('_etag');
    const completed = await api.call('GET', 'v1/clients/nightly/runs?status=completed');
    expect(completed.json.items.map((r: Run) => r.id)).toEqual(['r4', 'r1']);
    expect((await api.call('GET', 'v1/clients/none/runs')).status).toBe(404);
    const bad = await api.call('GET', 'v1/clients/nightly/runs?status=weird');
    expect([bad.status, bad.json.errors[0].path]).toEqual([400, 'query.status']);
  });

  it('delete is 204 and idempotent; the runs stay', async () => {
    expect((await api.call('DELETE', 'v1/clients/nightly', { key: admin })).status).toBe(204);
    expect((await api.call('DELETE', 'v1/clients/nightly', { key: admin })).status).toBe(204);
    expect((await api.call('GET', 'v1/clients/nightly')).status).toBe(404);
    expect((await api.call('GET', 'v1/runs?client_id=nightly')).json.total).toBe(3);
  });
});
