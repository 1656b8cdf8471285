import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSuiteSchema, type CatalogImpactReport, type CatalogMigrationResult, type Run, type Scorecard } from '../domain/index.js';
import { createApiKey } from '../api/index.js';
import { silentLogger } from '../host/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from './embedded.js';
import { storeQuickstart } from '../app/quickstart.test-helpers.js';

/**
 * Tool-schema versions end to end through the embedded platform's API: a new version of the quickstart catalog
 * (a renamed parameter, a new required parameter with a default, a type change, a removed tool), its impact per
 * case, a pinned suite that keeps running on the old version while an unpinned one breaks, a dry run, the
 * migration (history kept in suite versions, the pin moved only when nothing breaks) and its idempotence.
 */
let platform: EmbeddedPlatform;
let dataDir: string;
let keys: { admin: string; runner: string; reader: string };

async function api(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function runToEnd(body: Record<string, unknown>): Promise<Run> {
  const created = await api('POST', 'v1/runs', keys.runner, { target_id: 'recorded', suite_version: 'live', ...body });
  expect(created.status, JSON.stringify(created.json)).toBe(202);
  const until = Date.now() + 60_000;
  for (;;) {
    const { json } = await api('GET', `v1/runs/${created.json.id}`, keys.reader);
    if (['completed', 'degraded', 'failed', 'cancelled', 'timed_out'].includes(json.status)) return json;
    if (Date.now() > until) throw new Error(`run ${created.json.id} still ${json.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function syntaxOf(runId: string, caseId: string): Promise<Scorecard['stages']['syntax']> {
  const page = await api('GET', `v1/runs/${runId}/scorecards?limit=100`, keys.reader);
  return (page.json.items as Scorecard[]).find((c) => c.test_case_id === caseId)!.stages.syntax;
}

const V2 = {
  name: 'retail',
  tool_schema_version: '2026-02',
  tools: [
    {
      name: 'get_order',
      parameters: {
        type: 'object',
        properties: { order_ref: { type: 'string' }, include_items: { type: 'boolean', default: false } },
        required: ['order_ref', 'include_items'],
      },
    },
    {
      name: 'search_products',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          category: { type: 'string', enum: ['laptops', 'phones', 'audio', 'accessories'] },
          max_price: { type: 'number' },
          sort: { type: 'string', enum: ['relevance', 'price_asc', 'price_desc'] },
        },
        required: ['query'],
      },
    },
    {
      name: 'create_refund',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string' }, amount: { type: 'string' }, reason: { type: 'string' } },
        required: ['order_id', 'amount', 'reason'],
      },
    },
  ],
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-catalogs-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger, env: { ...process.env } });
  const { stores, apiKeys, clock } = platform.services;
  const now = clock.now().toISOString();
  const cases = await storeQuickstart(platform.services);
  const suite = (id: string, ids: string[], pins?: Record<string, string>) =>
    stores.suites.upsert(
      TestSuiteSchema.parse({
        id,
        name: id,
        kind: 'static',
        test_case_ids: ids,
        created_at: now,
        updated_at: now,
        ...(pins ? { tool_catalogs: pins } : {}),
      }),
    );
  await suite(
    'quick',
    cases.map((c) => c.id),
    { retail: '2026-01' },
  );
  await suite(
    'quick-unpinned',
    cases.map((c) => c.id),
  );
  await suite('orders', ['order-status-1', 'two-orders'], { retail: '2026-01' });
  keys = {
    admin: (await createApiKey(apiKeys, { name: 'curator', roles: ['test-admin', 'suite-admin'] }, clock)).key,
    runner: (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, clock)).key,
    reader: (await createApiKey(apiKeys, { name: 'dashboard', roles: ['reader'] }, clock)).key,
  };
  expect((await api('POST', 'v1/tool-catalogs', keys.admin, V2)).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await rm(dataDir, { recursive: true, force: true });
});

describe('a new tool catalog version', () => {
  it('reports which cases of which suites break, per kind, call and parameter, with suggested steps', async () => {
    const { status, json } = await api('GET', 'v1/tool-catalogs/retail/versions/2026-02/impact?suite_id=quick', keys.reader);
    expect(status).toBe(200);
    const report = json as CatalogImpactReport;
    expect(report.suites.map((s) => [s.suite_id, s.pinned_version, s.checked, s.broken])).toEqual([['quick', '2026-01', 8, 4]]);
    const breaks = Object.fromEntries(
      report.suites[0]!.cases.map((c) => [c.test_case_id, c.breaks.map((b) => [b.kind, b.parameter ?? null])]),
    );
    expect(breaks).toEqual({
      'order-status-1': [
        ['parameter_renamed', 'order_id'],
        ['required_parameter_added', 'include_items'],
      ],
      'two-orders': [
        ['parameter_renamed', 'order_id'],
        ['required_parameter_added', 'include_items'],
        ['parameter_renamed', 'order_id'],
        ['required_parameter_added', 'include_items'],
      ],
      'refund-damaged': [['type_changed', 'amount']],
      'ticket-lookup': [['tool_removed', null]],
    });
    expect(report.by_kind).toEqual({ parameter_renamed: 3, required_parameter_added: 3, type_changed: 1, tool_removed: 1 });
    expect(report.suggested_operations).toEqual([
      { op: 'rename_argument', tool: 'get_order', from: 'order_id', to: 'order_ref' },
      { op: 'add_default', tool: 'get_order', argument: 'include_items', value: false },
    ]);
    expect((await api('GET', 'v1/tool-catalogs/retail/versions/9999/impact', keys.reader)).status).toBe(404);
  });

  it('a pinned suite keeps running on the old version (shown on the run) while an unpinned one validates against the new', async () => {
    const { stores } = platform.services;
    const target = (await stores.targets.get('recorded'))!;
    const { _etag, ...body } = target;
    await stores.targets.replace({ ...body, tool_catalog: { name: 'retail', version: '2026-02' } });
    const pinned = await runToEnd({ suite_id: 'quick' });
    expect(pinned.tool_catalogs).toEqual({ retail: '2026-01' });
    expect(pinned.notes).toContain('tool catalog pinned: retail@2026-01 (suite quick pins it)');
    expect((await syntaxOf(pinned.id, 'order-status-1')).passed).toBe(true);
    const unpinned = await runToEnd({ suite_id: 'quick-unpinned' });
    expect(unpinned.tool_catalogs).toBeUndefined();
    const syntax = await syntaxOf(unpinned.id, 'order-status-1');
    expect(syntax.passed).toBe(false);
    expect(syntax.message).toMatch(/order_ref/);
  });

  it('migrates: a dry run writes nothing, the migration writes new case versions and keeps the old ones, and is idempotent', async () => {
    const operations = [
      { op: 'rename_argument', tool: 'get_order', from: 'order_id', to: 'order_ref' },
      { op: 'add_default', tool: 'get_order', argument: 'include_items', value: false },
    ];
    const dry = await api('POST', 'v1/tool-catalogs/retail/versions/2026-02/migrate', keys.admin, { operations, suite_ids: ['orders'] });
    expect(dry.status, JSON.stringify(dry.json)).toBe(200);
    const preview = dry.json as CatalogMigrationResult;
    expect([preview.dry_run, preview.changed, preview.suites[0]!.pin, preview.suites[0]!.published_version]).toEqual([
      true,
      2,
      { from: '2026-01', to: '2026-02' },
      null,
    ]);
    expect(preview.suites[0]!.changed.find((c) => c.test_case_id === 'order-status-1')!.changes).toEqual([
      { path: 'expected_tool_calls/0/arguments/order_id', before: 'order_id', after: 'order_ref' },
      { path: 'expected_tool_calls/0/arguments/include_items', after: false },
      { path: 'tool_catalog/version', before: '2026-01', after: '2026-02' },
    ]);
    expect((await platform.services.stores.testCases.getTestCase('order-status-1'))!.expected_tool_calls[0]!.arguments).toEqual({
      order_id: 'A-1001',
    });

    const done = (
      await api('POST', 'v1/tool-catalogs/retail/versions/2026-02/migrate', keys.admin, {
        operations,
        suite_ids: ['orders'],
        dry_run: false,
      })
    ).json as CatalogMigrationResult;
    const entry = done.suites[0]!;
    expect([done.changed, entry.still_broken, entry.pin, entry.snapshot_version, entry.published_version]).toEqual([
      2,
      [],
      { from: '2026-01', to: '2026-02' },
      1,
      2,
    ]);
    const migrated = (await platform.services.stores.testCases.getTestCase('order-status-1'))!;
    expect(migrated.expected_tool_calls[0]!.arguments).toEqual({ order_ref: 'A-1001', include_items: false });
    expect(migrated.tool_catalog).toEqual({ name: 'retail', version: '2026-02' });
    expect((await platform.services.stores.suites.get('orders'))!.tool_catalogs).toEqual({ retail: '2026-02' });
    // history: version 1 holds the old body, version 2 the migrated one
    const old = await api('GET', 'v1/test-suites/orders/versions/1/test-cases?bodies=true', keys.reader);
    expect(old.json.items[0].test_case.expected_tool_calls[0].arguments).toEqual({ order_id: 'A-1001' });
    const diff = await api('GET', 'v1/test-suites/orders/versions-diff?from=1&to=2', keys.reader);
    expect(diff.json.changed.map((c: { test_case_id: string }) => c.test_case_id)).toEqual(['order-status-1', 'two-orders']);
    // the migrated suite now runs on the new version and its cases validate there
    const run = await runToEnd({ suite_id: 'orders', suite_version: 'latest' });
    expect(run.tool_catalogs).toEqual({ retail: '2026-02' });
    expect(run.suite_version).toBe(2);

    const again = (
      await api('POST', 'v1/tool-catalogs/retail/versions/2026-02/migrate', keys.admin, {
        operations,
        suite_ids: ['orders'],
        dry_run: false,
      })
    ).json as CatalogMigrationResult;
    expect([again.changed, again.suites[0]!.snapshot_version, again.suites[0]!.published_version]).toEqual([0, null, null]);
    expect((await platform.services.stores.suiteVersions.listVersions('orders')).map((v) => v.version)).toEqual([2, 1]);
  });

  it('keeps the pin while a case still breaks, naming it', async () => {
    const res = await api('POST', 'v1/tool-catalogs/retail/versions/2026-02/migrate', keys.admin, { suite_ids: ['quick'] });
    const entry = (res.json as CatalogMigrationResult).suites[0]!;
    expect(entry.pin).toEqual({ from: '2026-01', to: '2026-01' });
    expect(entry.still_broken.map((c) => c.test_case_id).sort()).toEqual(['refund-damaged', 'ticket-lookup']);
    const bad = await api('POST', 'v1/tool-catalogs/retail/versions/2026-02/migrate', keys.admin, {
      operations: [{ op: 'rename_tool', from: 'x' }],
    });
    expect(bad.status).toBe(400);
  });
});
