import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientSchema, TargetSystemSchema, TestSuiteSchema, type Run } from '../domain/index.js';
import { createApiKey } from '../api/index.js';
import { silentLogger } from '../host/index.js';
import { toTimerInput } from '../host/timer/startup.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from './embedded.js';
import { storeQuickstart } from '../app/quickstart.test-helpers.js';

/**
 * The client triggers through the embedded platform: the registered `runTriggers` timer function is invoked as the
 * timer host would, runs execute on the platform's task hub and queues. Each trigger starts exactly one run with
 * the trigger recorded on it, however often the timer checks; new cases are debounced (a bulk import in several
 * requests starts one run of just those cases).
 */
let platform: EmbeddedPlatform;
let dataDir: string;
let agent: Server;
let model = 'simulated-model-a';
let keys: { admin: string; runner: string; reader: string };
const TERMINAL = ['completed', 'degraded', 'failed', 'cancelled', 'timed_out'];

async function api(
  method: string,
  path: string,
  key: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': contentType } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** One invocation of the registered trigger timer. */
async function tick(): Promise<void> {
  const registration = platform.host.registrations.find((r) => r.name === 'runTriggers');
  if (!registration) throw new Error('runTriggers is not registered');
  const now = Date.now();
  await platform.host.invoke(
    registration,
    toTimerInput({ schedule: '30 * * * * *', last: now - 60_000, next: now, lastUpdated: now - 60_000 }, false),
  );
}

async function runsOf(clientId: string): Promise<Run[]> {
  const runs = (await platform.services.stores.runs.listRuns({ client_id: clientId }, { limit: 100 })).items;
  return runs.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

async function finished(runId: string): Promise<Run> {
  const until = Date.now() + 60_000;
  for (;;) {
    const run = (await platform.services.stores.runs.getRun(runId))!;
    if (TERMINAL.includes(run.status)) return run;
    if (Date.now() > until) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function client(
  id: string,
  suiteIds: string[],
  target: string,
  triggers: Record<string, unknown>,
  updatedAt?: string,
): Promise<void> {
  const now = new Date().toISOString();
  await platform.services.stores.clients.upsert(
    ClientSchema.parse({
      id,
      name: id,
      suite_ids: suiteIds,
      target_id: target,
      triggers,
      created_at: updatedAt ?? now,
      updated_at: updatedAt ?? now,
    }),
  );
}

beforeAll(async () => {
  agent = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ answer: 'done', tool_calls: [], model }));
    });
  });
  await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-triggers-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger, env: { ...process.env } });
  const { stores, apiKeys, clock } = platform.services;
  const now = clock.now().toISOString();
  await storeQuickstart(platform.services);
  await stores.targets.upsert(
    TargetSystemSchema.parse({
      id: 'agent',
      name: 'local agent (simulated)',
      settings: {
        kind: 'http',
        url: `http://127.0.0.1:${(agent.address() as AddressInfo).port}/agent`,
        response: { answer_path: '$.answer', tool_calls_path: '$.tool_calls', model_path: '$.model' },
      },
      tool_catalog: { name: 'retail', version: '2026-01' },
      created_at: now,
      updated_at: now,
    }),
  );
  const suite = (id: string, fields: Record<string, unknown>) =>
    stores.suites.upsert(TestSuiteSchema.parse({ id, name: id, created_at: now, updated_at: now, ...fields }));
  await suite('orders', { kind: 'static', test_case_ids: ['order-status-1', 'two-orders'] });
  await suite('products', { kind: 'static', test_case_ids: ['cheap-headphones', 'laptops-default-sort'] });
  await suite('fresh', { kind: 'dynamic', filter: { tags: ['fresh'] } });
  keys = {
    admin: (await createApiKey(apiKeys, { name: 'curator', roles: ['test-admin'] }, clock)).key,
    runner: (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, clock)).key,
    reader: (await createApiKey(apiKeys, { name: 'dashboard', roles: ['reader'] }, clock)).key,
  };
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  agent?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('client triggers', () => {
  it("a model version change seen on a run re-evaluates the client's other suite once, recording the trigger", async () => {
    await client('m', ['orders', 'products'], 'agent', { model_version_change: true });
    const first = await api('POST', 'v1/runs', keys.runner, { client_id: 'm', suite_id: 'orders' });
    expect((await finished(first.json.id)).status).toBe('completed');
    model = 'simulated-model-b';
    const second = await api('POST', 'v1/runs', keys.runner, { client_id: 'm', suite_id: 'orders' });
    const seen = await finished(second.json.id);
    const triggered = (await runsOf('m')).filter((r) => r.triggered_by === 'trigger');
    expect(triggered.map((r) => [r.suite_id, r.status, r.trigger_metadata])).toEqual([
      [
        'products',
        'pending',
        { trigger: 'model_version_change', from_versions: 'simulated-model-a', to_versions: 'simulated-model-b', seen_on_run: seen.id },
      ],
    ]);
    expect(seen.notes).toContain(`model version trigger: re-evaluation ${triggered[0]!.id}`);
    await tick();
    const rerun = await finished(triggered[0]!.id);
    expect([rerun.status, rerun.total_cases]).toEqual(['completed', 2]);
    await tick();
    expect((await runsOf('m')).length).toBe(3);
  });

  it("a catalog's new version starts one run per suite for the clients using it, pinned to the new version", async () => {
    await client('k', ['orders'], 'recorded', { catalog_version: true });
    await tick();
    expect(await runsOf('k')).toEqual([]);
    const v1 = (await platform.services.stores.catalogs.get('retail@2026-01'))!;
    const created = await api('POST', 'v1/tool-catalogs', keys.admin, { name: 'retail', tool_schema_version: '2026-02', tools: v1.tools });
    expect(created.status).toBe(201);
    await tick();
    await tick();
    const runs = await runsOf('k');
    expect(runs.map((r) => [r.triggered_by, r.suite_id, r.tool_catalogs, r.trigger_metadata])).toEqual([
      [
        'trigger',
        'orders',
        { retail: '2026-02' },
        { trigger: 'catalog_version', catalog: 'retail', from_version: '2026-01', to_version: '2026-02' },
      ],
    ]);
    const run = await finished(runs[0]!.id);
    expect([run.status, run.total_cases]).toEqual(['completed', 2]);
  });

  it('new cases start one run of just those cases per client, after the additions are quiet (debounce)', async () => {
    const since = new Date(Date.now() - 3_600_000).toISOString();
    await client('n', ['fresh'], 'agent', { new_cases: true, new_cases_debounce_seconds: 3_600 }, since);
    const batch = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        JSON.stringify({
          id: `fresh-${from + i}`,
          nl_query: `Where is order A-${from + i}?`,
          expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: `A-${from + i}` } }],
          tool_catalog: { name: 'retail', version: '2026-01' },
          metadata: { tags: ['fresh'] },
        }),
      ).join('\n') + '\n';
    for (const from of [0, 40, 80]) {
      const imported = await api('POST', 'v1/test-cases/import', keys.admin, batch(from, 40), 'application/x-ndjson');
      expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    }
    await tick();
    expect(await runsOf('n')).toEqual([]); // still within the quiet period
    await client('n', ['fresh'], 'agent', { new_cases: true, new_cases_debounce_seconds: 0 }, since);
    await tick();
    await tick();
    const [run] = await runsOf('n');
    expect((await runsOf('n')).length).toBe(1);
    expect([
      run!.triggered_by,
      run!.trigger_metadata['trigger'],
      run!.trigger_metadata['new_cases'],
      run!.trigger_metadata['cases_after'],
    ]).toEqual(['trigger', 'new_cases', 120, since]);
    const done = await finished(run!.id);
    expect([done.status, done.total_cases]).toEqual(['completed', 120]);

    const more = await api('POST', 'v1/test-cases/import', keys.admin, batch(500, 2), 'application/x-ndjson');
    expect(more.status).toBe(200);
    await tick();
    const runs = await runsOf('n');
    expect(runs.length).toBe(2);
    expect(runs[1]!.trigger_metadata).toMatchObject({
      trigger: 'new_cases',
      new_cases: 2,
      cases_after: run!.trigger_metadata['cases_through'],
    });
    expect((await finished(runs[1]!.id)).total_cases).toBe(2);
  });
});
