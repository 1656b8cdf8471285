/**
 * Latency SLOs on the real embedded platform: a client sets a p95 objective per category, its run against an agent
 * that answers in ~40 ms violates the strict one with every case (an SLO alert with its severity, delivered to the
 * client's JSON webhook) and meets the loose one; the run view, the JSON and Markdown reports and `evalp status` show
 * the compliance.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientSchema, TargetSystemSchema, TestSuiteSchema, type Alert, type SloCompliance } from '../domain/index.js';
import { createApiKey } from '../api/index.js';
import { silentLogger } from '../host/index.js';
import { sampleTestCase } from '../ports/contracts/fixtures.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';
import { runCliInProcess } from '../cli/commands/cliRunner.test-helpers.js';

const CASES = 24;
const AGENT_DELAY_MS = 40;

let platform: EmbeddedPlatform;
let dataDir: string;
let key: string;
let agent: Server;
let hook: Server;
const posted: unknown[] = [];

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : undefined, text };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  agent = createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer: 'ok' })), AGENT_DELAY_MS);
  });
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      posted.push(JSON.parse(body));
      res.writeHead(200).end();
    });
  });
  const [agentPort, hookPort] = [await listen(agent), await listen(hook)];
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-slo-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
  const { stores, apiKeys, clock } = platform.services;
  const now = clock.now().toISOString();
  const cases = Array.from({ length: CASES }, (_, i) => sampleTestCase(`s-${i}`, { category: i % 2 ? 'search' : 'orders' }));
  await stores.testCases.upsertTestCases(cases);
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'slo-suite',
      name: 'slo',
      kind: 'static',
      test_case_ids: cases.map((c) => c.id),
      created_at: now,
      updated_at: now,
    }),
  );
  await stores.targets.upsert(
    TargetSystemSchema.parse({
      id: 'slow-agent',
      name: 'agent answering in ~40 ms',
      settings: { kind: 'http', url: `http://127.0.0.1:${agentPort}/agent` },
      created_at: now,
      updated_at: now,
    }),
  );
  await stores.clients.upsert(
    ClientSchema.parse({
      id: 'team-slo',
      name: 'team with SLOs',
      suite_ids: ['slo-suite'],
      target_id: 'slow-agent',
      // search must answer under 5 ms (it cannot: ~40 ms), orders under a minute
      latency_slos: [
        { category: 'search', p95_ms: 5, min_cases: 10 },
        { category: 'orders', p95_ms: 60_000, min_cases: 5 },
      ],
      notify: [{ kind: 'webhook', url: `http://127.0.0.1:${hookPort}/hook`, format: 'json' }],
      created_at: now,
      updated_at: now,
    }),
  );
  key = (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, clock)).key;
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  agent?.close();
  hook?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('latency SLOs on the embedded platform', () => {
  it('refuses a client SLO without a positive target, naming the field', async () => {
    const admin = (
      await createApiKey(
        platform.services.apiKeys,
        { name: 'admin', roles: ['platform-admin', 'suite-admin', 'test-admin'] },
        platform.services.clock,
      )
    ).key;
    const res = await fetch(`${platform.url}/api/v1/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'bad',
        name: 'bad',
        suite_ids: ['slo-suite'],
        target_id: 'slow-agent',
        latency_slos: [{ category: 'x', p95_ms: 0 }],
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('latency_slos');
  });

  it('a violated SLO raises a latency_slo alert with its severity, delivered to the webhook; the run view, reports and CLI show compliance', async () => {
    const created = await api('POST', 'v1/runs', { client_id: 'team-slo' });
    expect(created.status).toBe(202);
    const runId = created.json.id as string;
    const run = await until('the run to finish', async () => {
      const { json } = await api('GET', `v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    });
    const compliance = run.slo_compliance as SloCompliance[];
    expect(compliance.map((c) => [c.category, c.cases, c.status, c.severity])).toEqual([
      ['search', CASES / 2, 'violated', 'critical'],
      ['orders', CASES / 2, 'met', undefined],
    ]);
    const search = compliance[0]!;
    // every search case took ~40 ms against a 5 ms target: all above, margin ≥ 2, p = 0.05^12
    expect([search.above_target, search.p95_ms! >= AGENT_DELAY_MS, search.p_value! < 1e-10]).toEqual([CASES / 2, true, true]);

    const alerts = (await api('GET', `v1/alerts?run_id=${encodeURIComponent(runId)}`)).json.items as Alert[];
    expect(alerts.map((a) => [a.id, a.metric, a.category, a.severity, a.baseline_run_id, a.previous])).toEqual([
      [`${runId}:latency_slo:search`, 'latency_slo', 'search', 'critical', null, 5],
    ]);
    const delivered = await until('the webhook post', async () => (posted.length ? posted : undefined));
    expect(delivered[0]).toMatchObject({ event: 'slo_alert', severity: 'critical', alert: { metric: 'latency_slo', category: 'search' } });

    const report = await api('GET', `v1/runs/${runId}/report?format=json`);
    expect((report.json.slo_compliance as SloCompliance[]).map((c) => c.status)).toEqual(['violated', 'met']);
    const markdown = await api('GET', `v1/runs/${runId}/report?format=markdown`);
    expect(markdown.text).toContain('### Latency SLOs');
    expect(markdown.text).toMatch(/\| search \| 5 ms \| \d+ ms \| 12 \/ 12 \(min 10\) \| &lt; 0\.001 \| VIOLATED \(critical\) \|/);
    const status = await runCliInProcess(['status', runId, '--url', platform.url, '--key', key]);
    expect(status.stdout).toMatch(/SLO search +│ p95 \d+ ms vs 5 ms: VIOLATED \(critical\)/);
    expect(status.stdout).toMatch(/SLO orders +│ p95 \d+ ms vs 60000 ms: met/);
  }, 120_000);
});
