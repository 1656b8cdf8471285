import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../apiKeys.js';
import { silentLogger } from '../../host/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../platform/embedded.js';
import { sampleAlert } from '../../ports/contracts/alertStore.contract.js';
import type { Alert } from '../../domain/index.js';

let platform: EmbeddedPlatform;
let dataDir: string;
let reader: string;
let runner: string;
let admin: string;

async function api(method: string, path: string, key?: string): Promise<{ status: number; json: any; type: string | null }> {
  const res = await fetch(`${platform.url}/api/${path}`, { method, headers: key ? { authorization: `Bearer ${key}` } : {} });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, type: res.headers.get('content-type') };
}

const ALERTS: Alert[] = [
  sampleAlert('run-1', 'accuracy', { client_id: 'acme', severity: 'critical', created_at: '2026-03-01T08:00:00.000Z' }),
  sampleAlert('run-1', 'cost_per_case', {
    client_id: 'acme',
    change_unit: 'ratio',
    previous: 0.01,
    current: 0.019,
    change: 1.9,
    threshold: 1.5,
    severity: 'critical',
    created_at: '2026-03-01T08:00:01.000Z',
  }),
  sampleAlert('run-2', 'latency_p95', {
    client_id: 'globex',
    change_unit: 'ratio',
    previous: 2000,
    current: 3200,
    change: 1.6,
    threshold: 1.5,
    created_at: '2026-03-02T08:00:00.000Z',
  }),
  sampleAlert('run-3', 'accuracy', { created_at: '2026-03-03T08:00:00.000Z' }),
];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-alerts-api-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
  const { apiKeys, clock, stores } = platform.services;
  reader = (await createApiKey(apiKeys, { name: 'dashboard', roles: ['reader'] }, clock)).key;
  runner = (await createApiKey(apiKeys, { name: 'oncall', roles: ['reader', 'runner'] }, clock)).key;
  admin = (await createApiKey(apiKeys, { name: 'admin', roles: ['platform-admin'] }, clock)).key;
  for (const alert of ALERTS) await stores.alerts.createAlert(alert);
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await rm(dataDir, { recursive: true, force: true });
});

describe('alerts API', () => {
  it.each<[string, string, string[]]>([
    ['no filter: newest first', '', ['run-3:accuracy', 'run-2:latency_p95', 'run-1:cost_per_case', 'run-1:accuracy']],
    ['run_id', '?run_id=run-1', ['run-1:cost_per_case', 'run-1:accuracy']],
    ['client_id', '?client_id=globex', ['run-2:latency_p95']],
    ['severity', '?severity=critical', ['run-1:cost_per_case', 'run-1:accuracy']],
    ['metric', '?metric=accuracy', ['run-3:accuracy', 'run-1:accuracy']],
    ['status', '?status=open&client_id=acme&metric=cost_per_case', ['run-1:cost_per_case']],
    ['paged', '?limit=2&offset=1', ['run-2:latency_p95', 'run-1:cost_per_case']],
    ['nothing matches', '?run_id=nope', []],
  ])('lists alerts: %s', async (_label, query, ids) => {
    const r = await api('GET', `v1/alerts${query}`, reader);
    expect([r.status, r.json.items.map((a: Alert) => a.id)]).toEqual([200, ids]);
  });

  it('returns a page with total and has_more, items as stored (no _etag)', async () => {
    const r = await api('GET', 'v1/alerts?run_id=run-1&limit=1', reader);
    expect(r.json).toEqual({ items: [ALERTS[1]], total: 2, has_more: true, limit: 1, offset: 0 });
  });

  it('gets one alert by id', async () => {
    const r = await api('GET', `v1/alerts/${encodeURIComponent('run-2:latency_p95')}`, reader);
    expect([r.status, r.json]).toEqual([200, ALERTS[2]]);
  });

  it.each<[string, string, string[]]>([
    ['an unknown severity', 'v1/alerts?severity=fatal', ['query.severity']],
    ['an unknown metric and a bad limit', 'v1/alerts?metric=joy&limit=0', ['query.metric', 'query.limit']],
    ['an unknown filter', 'v1/alerts?colour=red', ['query']],
  ])('answers 400 problem+json naming the field for %s', async (_label, path, paths) => {
    const r = await api('GET', path, reader);
    expect([r.status, r.type, r.json.errors.map((e: { path: string }) => e.path)]).toEqual([400, 'application/problem+json', paths]);
  });

  it('answers 404 for an unknown alert (get and acknowledge)', async () => {
    const get = await api('GET', 'v1/alerts/run-9:accuracy', reader);
    const ack = await api('POST', 'v1/alerts/run-9:accuracy/acknowledge', runner);
    expect([get.status, get.type, get.json.detail, ack.status]).toEqual([
      404,
      'application/problem+json',
      'alert "run-9:accuracy" does not exist',
      404,
    ]);
  });

  it('answers 401 without a key and 403 to a reader or platform-admin acknowledging', async () => {
    const anonymous = await api('GET', 'v1/alerts');
    const asReader = await api('POST', 'v1/alerts/run-3:accuracy/acknowledge', reader);
    const asAdmin = await api('POST', 'v1/alerts/run-3:accuracy/acknowledge', admin);
    expect([anonymous.status, asReader.status, asReader.json.detail, asAdmin.status]).toEqual([
      401,
      403,
      expect.stringContaining('"runner" role'),
      403,
    ]);
    expect((await api('GET', 'v1/alerts/run-3:accuracy', reader)).json.status).toBe('open');
  });

  it('acknowledges: records who and when; again is idempotent (the first acknowledgement stays)', async () => {
    const first = await api('POST', 'v1/alerts/run-3:accuracy/acknowledge', runner);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      ...ALERTS[3],
      status: 'acknowledged',
      acknowledged_by: 'oncall',
      acknowledged_at: expect.any(String),
      updated_at: first.json.acknowledged_at,
    });
    expect(Date.now() - Date.parse(first.json.acknowledged_at)).toBeLessThan(60_000);
    const again = await api('POST', 'v1/alerts/run-3:accuracy/acknowledge', runner);
    expect([again.status, again.json]).toEqual([200, first.json]);
    const listed = await api('GET', 'v1/alerts?status=acknowledged', reader);
    expect(listed.json.items).toEqual([first.json]);
  });
});
