import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetSystemSchema, TestSuiteSchema, type Run, type RunStats, type Scorecard } from '../domain/index.js';
import { createApiKey } from '../api/index.js';
import { silentLogger } from '../host/index.js';
import { PENDING } from '../evaluation/pipeline/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from './embedded.js';
import { storeQuickstart } from '../app/quickstart.test-helpers.js';

let platform: EmbeddedPlatform;
let dataDir: string;
let runner: string;
let reader: string;

async function api(
  method: string,
  path: string,
  key?: string,
  body?: unknown,
): Promise<{ status: number; json: any; type: string | null }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, type: res.headers.get('content-type') };
}

async function waitFor(runId: string, timeoutMs = 30_000): Promise<Run & { stats: RunStats }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { json } = await api('GET', `v1/runs/${runId}`, reader);
    if (['completed', 'degraded', 'failed', 'cancelled', 'timed_out'].includes(json.status)) return json;
    if (Date.now() > until) throw new Error(`run ${runId} still ${json.status}: ${JSON.stringify(json.stats)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-platform-'));
  // a short open window for the breaker: cases of a failing target are put off, not scored, while it is open
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger, env: { ...process.env, EVALP_CIRCUIT_OPEN_MS: '200' } });
  const { stores, apiKeys, clock } = platform.services;
  const now = clock.now().toISOString();
  const cases = await storeQuickstart(platform.services);
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'quick',
      name: 'quickstart',
      kind: 'static',
      test_case_ids: cases.map((c) => c.id),
      created_at: now,
      updated_at: now,
    }),
  );
  runner = (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, clock)).key;
  reader = (await createApiKey(apiKeys, { name: 'dashboard', roles: ['reader'] }, clock)).key;
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await rm(dataDir, { recursive: true, force: true });
});

describe('a run end to end on the embedded platform', () => {
  let runId: string;

  it('health is anonymous', async () => {
    const r = await api('GET', 'health');
    expect([r.status, r.json.status]).toEqual([200, 'ok']);
  });

  it('rejects a trigger without a key (401), with a reader key (403), a bad body (400) and an unknown suite (422)', async () => {
    const ok = { suite_id: 'quick', target_id: 'recorded' };
    const noKey = await api('POST', 'v1/runs', undefined, ok);
    expect([noKey.status, noKey.type]).toEqual([401, 'application/problem+json']);
    expect((await api('POST', 'v1/runs', reader, ok)).status).toBe(403);
    const bad = await api('POST', 'v1/runs', runner, { ...ok, trigger_metadata: { pr_number: -3 } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e: { path: string }) => e.path)).toEqual(['body.trigger_metadata.pr_number']);
    const unknown = await api('POST', 'v1/runs', runner, { ...ok, suite_id: 'nope' });
    expect([unknown.status, unknown.json.errors[0].path]).toEqual([422, 'body.suite_id']);
  });

  it('runs all four stages and writes exactly one scorecard per case', async () => {
    const created = await api('POST', 'v1/runs', runner, {
      suite_id: 'quick',
      target_id: 'recorded',
      trigger_metadata: { commit_sha: 'abc1234', pr_number: 7 },
      config: { profile: 'nightly', execution: { provider: 'expected' }, semantics: { judge: 'local' } },
    });
    expect(created.status).toBe(202);
    runId = created.json.id;
    const run = await waitFor(runId);
    expect([run.status, run.total_cases, run.stats.completed, run.stats.progress_pct]).toEqual(['completed', 8, 8, 100]);
    const cards = await api('GET', `v1/runs/${runId}/scorecards?limit=100`, reader);
    expect(cards.json.total).toBe(8);
    const ids = (cards.json.items as Scorecard[]).map((c) => c.test_case_id).sort();
    expect(new Set(ids).size).toBe(8);
    const passed = (cards.json.items as Scorecard[]).filter((c) => c.overall_passed).length;
    expect(run.stats.passed).toBe(passed);
    const items = cards.json.items as Scorecard[];
    // every enabled stage ran on every case that passed the gate (none left pending between queues)
    expect(items.filter((c) => c.stages.execution.message === PENDING || c.stages.semantics.message === PENDING)).toEqual([]);
    expect(items.filter((c) => c.stages.execution.status === 'passed').length).toBeGreaterThan(0);
    expect(
      items
        .filter((c) => c.stages.semantics.status === 'failed')
        .map((c) => c.test_case_id)
        .sort(),
    ).toEqual(['cheap-headphones', 'order-status-1', 'smalltalk']);
    const failed = await api('GET', `v1/runs/${runId}/scorecards?passed=false`, reader);
    expect(failed.json.total).toBe(8 - passed);
  });

  it('live statistics equal a recount from the stored scorecards', async () => {
    const live = (await api('GET', `v1/runs/${runId}`, reader)).json.stats as RunStats;
    const recount = await platform.services.stores.runStats.recomputeRunStats(runId, 8);
    expect({ ...live, updated_at: '' }).toEqual({ ...recount, updated_at: '' });
  });

  it('retry-failures starts a new run of only the failed cases', async () => {
    const r = await api('POST', `v1/runs/${runId}/retry-failures`, runner, {});
    expect(r.status).toBe(202);
    const retry = await waitFor(r.json.id);
    const parentFailed = (await api('GET', `v1/runs/${runId}/scorecards?passed=false`, reader)).json.total;
    expect([retry.status, retry.total_cases, retry.parent_run_id, retry.triggered_by]).toEqual(['completed', parentFailed, runId, 'retry']);
  });

  it('a target that fails every call never crashes a worker: cases are not scored (target_error) after their delivery budget, the run finishes degraded', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const now = platform.services.clock.now().toISOString();
      await platform.services.stores.targets.upsert(
        TargetSystemSchema.parse({
          id: 'broken',
          name: 'always 500',
          settings: { kind: 'http', url: `http://127.0.0.1:${port}/agent` },
          max_retries: 1,
          created_at: now,
          updated_at: now,
        }),
      );
      const created = await api('POST', 'v1/runs', runner, { suite_id: 'quick', target_id: 'broken' });
      const run = await waitFor(created.json.id, 60_000);
      expect([
        run.status,
        run.stats.completed,
        run.stats.passed,
        run.stats.not_scored,
        run.stats.pass_rate,
        run.stats.infrastructure_failure_rate,
      ]).toEqual(['degraded', 8, 0, 8, null, 1]);
      expect(run.stats.error_codes).toEqual({ target_error: 8 });
      const cards = (await api('GET', `v1/runs/${run.id}/scorecards?limit=100`, reader)).json.items as Scorecard[];
      expect(cards.every((c) => c.outcome === 'not_scored' && /after 3 deliveries/.test(c.stages.syntax.message ?? ''))).toBe(true);
      // 8 cases x 3 deliveries x (1 + 1 retry) = 48 requests at most: a case put off by the open circuit makes none
      expect(requests).toBeLessThanOrEqual(48);
    } finally {
      server.close();
    }
  });

  it('a finished run cannot be cancelled (409), an unknown one is 404', async () => {
    const admin = (await createApiKey(platform.services.apiKeys, { name: 'admin', roles: ['platform-admin'] }, platform.services.clock))
      .key;
    expect((await api('DELETE', `v1/runs/${runId}`, admin)).status).toBe(409);
    expect((await api('DELETE', 'v1/runs/nope', admin)).status).toBe(404);
    expect((await api('DELETE', `v1/runs/${runId}`, runner)).status).toBe(403);
  });
});
