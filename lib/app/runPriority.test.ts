/**
 * Run priorities on the real embedded platform: a big low-priority run is under way (its first batch held by the
 * agent), a small high-priority run is submitted after it, and the stage worker takes the high run's cases next:
 * the agent sees every high request before the low run's remaining ones, and the high run finishes first.
 * Ordering is forced by the gate, not by timing, so it holds under load.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetSystemSchema, TestSuiteSchema, type Run, type RunStats } from '../domain/index.js';
import { createApiKey } from '../api/index.js';
import { silentLogger } from '../host/index.js';
import { sampleTestCase } from '../ports/contracts/fixtures.js';
import { QUEUES } from '../runs/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';

const BATCH = 10;
const LOW_CASES = 60;
const HIGH_CASES = 8;

let platform: EmbeddedPlatform;
let dataDir: string;
let runner: string;
let agent: Server;
/** the path of every agent request, in arrival order (`/low` or `/high`) */
const arrivals: string[] = [];
let released = false;
const held: Array<() => void> = [];

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${runner}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const finished = (runId: string) =>
  until(`run ${runId} to finish`, async () => {
    const { json } = await api('GET', `v1/runs/${runId}`);
    return ['completed', 'degraded', 'failed', 'cancelled', 'timed_out'].includes(json.status) ? (json as Run & { stats: RunStats }) : null;
  });

beforeAll(async () => {
  agent = createServer((req, res) => {
    arrivals.push(req.url ?? '');
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer: 'It is sunny.' }));
    // the low run's first requests wait for the gate: its first batch stays in flight while the high run is submitted
    if (!released && req.url === '/low') held.push(answer);
    else answer();
  });
  await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));
  const port = (agent.address() as AddressInfo).port;
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-priority-'));
  platform = await startEmbeddedPlatform({
    dataDir,
    port: 0,
    logger: silentLogger,
    // one small batch at a time: the worker chooses what to take next after each batch
    queues: { [QUEUES.evaluate]: { maxMessageBatchSize: BATCH, maxConcurrentBatches: 1, lockDurationMs: 5 * 60_000 } },
  });
  const { stores, apiKeys, clock } = platform.services;
  const now = clock.now().toISOString();
  const cases = Array.from({ length: LOW_CASES }, (_, i) => sampleTestCase(`p-${String(i).padStart(3, '0')}`));
  await stores.testCases.upsertTestCases(cases);
  const suite = (id: string, ids: string[]) =>
    TestSuiteSchema.parse({ id, name: id, kind: 'static', test_case_ids: ids, created_at: now, updated_at: now });
  await stores.suites.upsert(
    suite(
      'nightly-full',
      cases.map((c) => c.id),
    ),
  );
  await stores.suites.upsert(
    suite(
      'pr-smoke',
      cases.slice(0, HIGH_CASES).map((c) => c.id),
    ),
  );
  for (const lane of ['low', 'high'])
    await stores.targets.upsert(
      TargetSystemSchema.parse({
        id: `agent-${lane}`,
        name: `agent (${lane} lane)`,
        settings: { kind: 'http', url: `http://127.0.0.1:${port}/${lane}` },
        created_at: now,
        updated_at: now,
      }),
    );
  runner = (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, clock)).key;
}, 60_000);

afterAll(async () => {
  released = true;
  for (const answer of held.splice(0)) answer();
  await platform?.stop({ timeoutInMs: 5_000 });
  agent?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('run priorities on the embedded platform', () => {
  it('refuses an unknown priority, naming the field', async () => {
    const r = await api('POST', 'v1/runs', { suite_id: 'pr-smoke', target_id: 'agent-high', priority: 'urgent' });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain('priority');
  });

  it('a high-priority run submitted after a big low-priority run is processed next and finishes first', async () => {
    const low = await api('POST', 'v1/runs', { suite_id: 'nightly-full', target_id: 'agent-low', priority: 'low' });
    expect(low.status).toBe(202);
    // the low run's first batch is at the agent (held); the rest of its cases wait in the queue
    await until('the first low batch at the agent', () => held.length === BATCH);
    await until('the low backlog in the queue', () => platform.host.queues.counts(QUEUES.evaluate).active === LOW_CASES - BATCH);
    const high = await api('POST', 'v1/runs', { suite_id: 'pr-smoke', target_id: 'agent-high', config: { priority: 'high' } });
    expect(high.status).toBe(202);
    await until('the high run queued', () => platform.host.queues.counts(QUEUES.evaluate).active === LOW_CASES - BATCH + HIGH_CASES);
    released = true;
    for (const answer of held.splice(0)) answer();

    const [highRun, lowRun] = [await finished(high.json.id), await finished(low.json.id)];
    // after the held batch, the worker took every high case before any further low one
    expect(arrivals.slice(0, BATCH)).toEqual(Array(BATCH).fill('/low'));
    expect(arrivals.slice(BATCH, BATCH + HIGH_CASES)).toEqual(Array(HIGH_CASES).fill('/high'));
    expect(arrivals.filter((a) => a === '/low')).toHaveLength(LOW_CASES);
    // both finish (the low run is not starved), the high one first, and the run view shows each priority
    expect([highRun.stats.completed, lowRun.stats.completed]).toEqual([HIGH_CASES, LOW_CASES]);
    expect(Date.parse(highRun.completed_at!)).toBeLessThan(Date.parse(lowRun.completed_at!));
    expect([highRun.config.priority, lowRun.config.priority]).toEqual(['high', 'low']);
  }, 120_000);

  it('a run without a priority is normal (absent from its config)', async () => {
    const r = await api('POST', 'v1/runs', { suite_id: 'pr-smoke', target_id: 'agent-high' });
    const run = await finished(r.json.id);
    expect([run.status, run.config.priority]).toEqual(['completed', undefined]);
  }, 60_000);
});
