import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientSchema, TargetSystemSchema, type Alert, type Run } from '../domain/index.js';
import { createApiKey } from '../api/index.js';
import { demoRunConfig, loadRetailSample } from '../app/demo.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';
import { packageRoot } from '../app/packageRoot.js';
import { silentLogger } from '../host/index.js';
import { caseOutcomeOf } from '../domain/stats/index.js';
import { RETAIL_MODELS, retailCards } from './retailRuns.test-helpers.js';
import { startWebhookServer, type WebhookServer } from './notify/webhookServer.test-helpers.js';

/**
 * Regression alerts on the running platform: two runs of a client's target through the real orchestrator,
 * queues and change feed (the target's recorded model changes from A to B in between), the alert raised at the
 * run's end against the automatically chosen baseline, the model version note, the webhook delivered through
 * the alert-notifications queue after a retry, and a scheduled retry that survives a restart.
 */
const SAMPLE = join(packageRoot(), 'examples', 'retail');
let platform: EmbeddedPlatform;
let dataDir: string;
let runner: string;
let hook: WebhookServer;
const env = { EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS: process.env.EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS };

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${runner}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function runToEnd(): Promise<Run> {
  const started = await api('POST', 'v1/runs', { client_id: 'acme' });
  expect(started.status).toBe(202);
  return until(`run ${started.json.id}`, async () => {
    const { json } = await api('GET', `v1/runs/${started.json.id}`);
    return ['completed', 'failed', 'cancelled', 'timed_out'].includes(json.status) ? (json as Run) : undefined;
  });
}

async function pointTargetAt(outputs: string): Promise<void> {
  const now = new Date().toISOString();
  await platform.services.stores.targets.upsert(
    TargetSystemSchema.parse({
      id: 'retail-live',
      name: 'Retail agent (whatever model is deployed)',
      settings: { kind: 'replay', outputs_path: join(SAMPLE, outputs) },
      tool_catalog: { name: 'retail', version: '2026-10' },
      created_at: now,
      updated_at: now,
    }),
  );
}

beforeAll(async () => {
  process.env.EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS = '50';
  hook = await startWebhookServer();
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-alerts-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
  const { services } = platform;
  await loadRetailSample(services, SAMPLE);
  const now = new Date().toISOString();
  await services.stores.clients.upsert(
    ClientSchema.parse({
      id: 'acme',
      name: 'Acme retail',
      suite_ids: ['retail-demo'],
      target_id: 'retail-live',
      notify: [{ kind: 'webhook', url: hook.url, format: 'slack' }],
      config_overrides: demoRunConfig(SAMPLE),
      created_at: now,
      updated_at: now,
    }),
  );
  runner = (await createApiKey(services.apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, services.clock)).key;
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await hook?.close();
  await rm(dataDir, { recursive: true, force: true });
  if (env.EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS === undefined) delete process.env.EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS;
  else process.env.EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS = env.EVALP_ALERT_WEBHOOK_RETRY_DELAY_MS;
});

describe('regression alerts on the embedded platform', () => {
  let second: Run;

  it('the first run has no baseline and raises nothing; the second (model B behind the same target) raises high alerts', async () => {
    await pointTargetAt('outputs-model-a.jsonl');
    const first = await runToEnd();
    expect(first.status).toBe('completed');
    expect((await api('GET', `v1/alerts?run_id=${first.id}`)).json.total).toBe(0);
    hook.script = [{ status: 503, body: 'maintenance' }];
    await pointTargetAt('outputs-model-b.jsonl');
    second = await runToEnd();
    expect(second.notes).toEqual([`model version changed since baseline run ${first.id}: ${RETAIL_MODELS.a} -> ${RETAIL_MODELS.b}`]);
    // the alerts are in as soon as the run shows as finished
    const { json } = await api('GET', `v1/alerts?run_id=${second.id}`);
    expect(json.items.map((a: Alert) => [a.metric, a.severity, a.baseline_run_id, a.live])).toEqual([
      ['accuracy', 'high', first.id, false],
      ['cost_per_case', 'high', first.id, false],
    ]);
    expect(json.items[0].affected_categories.map((c: { category: string }) => c.category)).toContain('refunds');
  }, 60_000);

  it("delivers each alert to the client's Slack webhook once, retrying after a 503", async () => {
    const delivered = await until('both deliveries', async () => {
      const { json } = await api('GET', `v1/alerts?run_id=${second.id}`);
      return json.items.every((a: Alert) => a.delivery.status === 'delivered') ? (json.items as Alert[]) : undefined;
    });
    expect(delivered.map((a) => a.delivery.attempts).sort()).toEqual([1, 2]);
    expect(hook.received).toHaveLength(3);
    // three posts: the one that met the 503 went again
    const titles = hook.received.map((m) => (m as { blocks: Array<{ text: { text: string } }> }).blocks[0]!.text.text);
    expect(new Set(titles)).toEqual(new Set(['High regression: accuracy of retail-live', 'High regression: cost per case of retail-live']));
  });

  it('raises live alerts from the scorecards change feed while a run is going (and the feed handler takes document arrays)', async () => {
    const { stores } = platform.services;
    const { b } = await retailCards();
    const first = (await stores.runs.listRuns({ client_id: 'acme' }, { limit: 10 })).items.at(-1)!;
    await stores.runs.createRun({
      ...first,
      id: 'live-b',
      status: 'running',
      baseline_run_id: first.id,
      created_at: new Date().toISOString(),
      completed_at: null,
      notes: [],
    });
    const cards = b.slice(0, 250).map((c) => ({ ...c, run_id: 'live-b' }));
    await stores.scorecards.upsertScorecards(cards);
    // the registered feed function, called with a document array (as Cosmos DB would deliver them)
    const feed = platform.host.registrations.find((r) => r.name === 'runStatsFeed')!;
    await platform.host.invoke(feed, cards.map(caseOutcomeOf));
    const live = await until('live alerts', async () => {
      const { json } = await api('GET', 'v1/alerts?run_id=live-b');
      return json.total === 2 ? (json.items as Alert[]) : undefined;
    });
    expect(live.map((a) => [a.metric, a.severity, a.live, a.paired_cases]).sort()).toEqual([
      ['accuracy', 'high', true, 250],
      ['cost_per_case', 'high', true, 250],
    ]);
    expect((await platform.services.stores.runStats.getRunStats('live-b'))?.completed).toBe(250);
  });

  it('keeps a scheduled retry across a restart and delivers it afterwards', async () => {
    const { stores, clock, queue } = platform.services;
    const alert = (await stores.alerts.getAlert(`${second.id}:accuracy`))!;
    const { queueNotifications } = await import('./notify/queueNotifications.js');
    const later = await startWebhookServer([{ status: 429, headers: { 'retry-after': '2' }, body: 'slow down' }]);
    await queueNotifications(alert, { notify: [{ kind: 'webhook', url: later.url, format: 'teams' }] }, { stores, clock, queue });
    await until('the first attempt', async () => (later.received.length === 1 ? true : undefined));
    await platform.stop({ timeoutInMs: 5_000 });
    platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
    runner = (await createApiKey(platform.services.apiKeys, { name: 'ci2', roles: ['reader', 'runner'] }, platform.services.clock)).key;
    expect(later.received).toHaveLength(1);
    await until('the retry after the restart', async () => (later.received.length === 2 ? true : undefined), 10_000);
    // the webhook server has answered before the worker records the delivery: wait for the stored status
    const notification = await until(
      'the delivery recorded',
      async () => {
        const [n] = (await platform.services.stores.alerts.listNotifications(alert.id)).filter((x) => x.format === 'teams');
        return n?.status === 'pending' ? undefined : n;
      },
      10_000,
    );
    expect([notification?.status, notification?.attempts, (later.received[1] as { type: string }).type]).toEqual([
      'delivered',
      2,
      'message',
    ]);
    await later.close();
  }, 30_000);
});
