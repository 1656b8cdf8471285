import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseContentHash, TestSuiteSchema, type Run, type RunStats, type Scorecard, type TestCase } from '../domain/index.js';
import { createApiKey } from '../api/index.js';
import { silentLogger } from '../host/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from './embedded.js';
import { storeQuickstart } from '../app/quickstart.test-helpers.js';

/**
 * Suite versions and sampling end to end through the embedded platform's API: publish, run on the version, change a
 * case, run pinned (the change does not join), publish again, diff, run on the new version, compare (a warning and
 * pairing on equal content hashes only), and a stratified sampled run with its report.
 */
let platform: EmbeddedPlatform;
let dataDir: string;
let keys: { runner: string; reader: string; suiteAdmin: string };
let cases: TestCase[];

async function api(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

async function runToEnd(body: Record<string, unknown>): Promise<Run & { stats: RunStats }> {
  const created = await api('POST', 'v1/runs', keys.runner, { suite_id: 'quick', target_id: 'recorded', ...body });
  expect(created.status, JSON.stringify(created.json)).toBe(202);
  const until = Date.now() + 60_000;
  for (;;) {
    const { json } = await api('GET', `v1/runs/${created.json.id}`, keys.reader);
    if (['completed', 'degraded', 'failed', 'cancelled', 'timed_out'].includes(json.status)) return json;
    if (Date.now() > until) throw new Error(`run ${created.json.id} still ${json.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function cardsOf(runId: string): Promise<Map<string, Scorecard>> {
  const page = await api('GET', `v1/runs/${runId}/scorecards?limit=100`, keys.reader);
  return new Map((page.json.items as Scorecard[]).map((c) => [c.test_case_id, c]));
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-versions-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger, env: { ...process.env } });
  const { stores, apiKeys, clock } = platform.services;
  const now = clock.now().toISOString();
  cases = await storeQuickstart(platform.services);
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
  keys = {
    runner: (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, clock)).key,
    reader: (await createApiKey(apiKeys, { name: 'dashboard', roles: ['reader'] }, clock)).key,
    suiteAdmin: (await createApiKey(apiKeys, { name: 'curator', roles: ['suite-admin'] }, clock)).key,
  };
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await rm(dataDir, { recursive: true, force: true });
});

describe('suite versions end to end (embedded platform API)', () => {
  let first: Run;
  const changedId = 'order-status-1';

  it('publishing needs suite-admin and records the caller as author, the ids and their content hashes', async () => {
    expect((await api('POST', 'v1/test-suites/quick/versions', keys.runner, {})).status).toBe(403);
    expect((await api('POST', 'v1/test-suites/nope/versions', keys.suiteAdmin, {})).status).toBe(404);
    const published = await api('POST', 'v1/test-suites/quick/versions', keys.suiteAdmin, { note: 'first cut' });
    expect(published.status).toBe(201);
    expect(published.json).toMatchObject({ suite_id: 'quick', version: 1, author: 'curator', note: 'first cut', case_count: cases.length });
    const page = await api('GET', 'v1/test-suites/quick/versions/1/test-cases?limit=3&offset=0&bodies=true', keys.reader);
    expect(page.json).toMatchObject({ total: cases.length, has_more: true, limit: 3 });
    for (const item of page.json.items) {
      const original = cases.find((c) => c.id === item.test_case_id)!;
      expect(item.content_hash).toBe(caseContentHash(original));
      expect(item.test_case).toEqual(original);
    }
    expect((await api('GET', 'v1/test-suites/quick/versions', keys.reader)).json.items.map((v: { version: number }) => v.version)).toEqual([
      1,
    ]);
  });

  it('a run pins the latest published version by default; its scorecards carry the version and the case hash', async () => {
    first = await runToEnd({});
    expect([first.status, first.suite_version, first.total_cases]).toEqual(['completed', 1, cases.length]);
    const card = (await cardsOf(first.id)).get(changedId)!;
    expect([card.suite_version, card.case_hash]).toEqual([1, caseContentHash(cases.find((c) => c.id === changedId)!)]);
    const report = await api('GET', `v1/runs/${first.id}/report?format=markdown`, keys.reader);
    expect(report.text).toContain('suite version 1');
  });

  it('a case body changed after publication never joins a run pinned to the version; a live run sees it', async () => {
    const { stores } = platform.services;
    const original = (await stores.testCases.getTestCase(changedId))!;
    const { _etag, ...body } = original;
    await stores.testCases.replaceTestCase({
      ...body,
      expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: 'Z-9999' } }],
    });
    const pinned = await runToEnd({ suite_version: 1 });
    const live = await runToEnd({ suite_version: 'live' });
    expect([pinned.suite_version, live.suite_version ?? null]).toEqual([1, null]);
    const [a, p, l] = [await cardsOf(first.id), await cardsOf(pinned.id), await cardsOf(live.id)];
    expect(p.get(changedId)!.case_hash).toBe(a.get(changedId)!.case_hash);
    expect(p.get(changedId)!.overall_passed).toBe(a.get(changedId)!.overall_passed);
    expect(a.get(changedId)!.overall_passed).toBe(true);
    // the live run evaluated the edited body: another hash, and the edited expectation fails
    expect(l.get(changedId)!.case_hash).not.toBe(a.get(changedId)!.case_hash);
    expect(l.get(changedId)!.overall_passed).toBe(false);
    expect((await api('POST', 'v1/runs', keys.runner, { suite_id: 'quick', target_id: 'recorded', suite_version: 7 })).status).toBe(422);
  });

  it('publishing again and diffing names the changed case; a run on the new version compared with the old pairs equal hashes only', async () => {
    const v2 = await api('POST', 'v1/test-suites/quick/versions', keys.suiteAdmin, { note: 'order fix' });
    expect(v2.json.version).toBe(2);
    const diff = await api('GET', 'v1/test-suites/quick/versions-diff?from=1&to=2', keys.reader);
    expect(diff.json).toMatchObject({ added: [], removed: [], unchanged: cases.length - 1 });
    expect(diff.json.changed.map((c: { test_case_id: string }) => c.test_case_id)).toEqual([changedId]);
    const second = await runToEnd({});
    expect(second.suite_version).toBe(2);
    const cmp = await api('POST', 'v1/compare', keys.reader, { run_ids: [first.id, second.id] });
    expect(cmp.status).toBe(200);
    const pair = cmp.json.pairs[0];
    expect(pair.suite_versions).toMatchObject({ baseline_version: 1, candidate_version: 2, excluded_changed: 1 });
    expect(pair.suite_versions.warning).toMatch(/different suite versions \(version 1 and version 2\)/);
    expect(pair.cases).toMatchObject({ shared: cases.length - 1 });
    // the changed case flipped (passed in v1, fails in v2) but is not a paired "newly failing" case
    expect(pair.flipped.newly_failing.total).toBe(0);
    // same version: no warning, every case paired
    const same = await api('POST', 'v1/compare', keys.reader, { run_ids: [first.id, first.id] });
    expect(same.json.pairs[0].suite_versions).toBeUndefined();
  });

  it('a stratified sample: the run records population and strata, the report states the sample per stratum', async () => {
    const sample = { size: 5, method: 'stratified', stratify_by: 'category', allocation: 'equal', seed: 7 };
    const run = await runToEnd({ config: { sample } });
    expect(run.total_cases).toBe(5);
    expect(run.sample).toMatchObject({ population_size: cases.length, sample_size: 5 });
    expect(run.sample!.strata.reduce((a, s) => a + s.sample, 0)).toBe(5);
    const again = await runToEnd({ config: { sample } });
    expect(Object.keys(Object.fromEntries(await cardsOf(again.id))).sort()).toEqual(
      Object.keys(Object.fromEntries(await cardsOf(run.id))).sort(),
    );
    const report = await api('GET', `v1/runs/${run.id}/report?format=markdown`, keys.reader);
    expect(report.text).toMatch(/Sampled run: 5 of 8 cases, stratified by category \(equal allocation\), seed 7/);
    expect(report.text).toContain('| stratum | population | sampled | scored |');
    const json = await api('GET', `v1/runs/${run.id}/report`, keys.reader);
    expect(json.json.sample.strata.map((s: { sample: number }) => s.sample).reduce((a: number, b: number) => a + b, 0)).toBe(5);
    const bad = await api('POST', 'v1/runs', keys.runner, {
      suite_id: 'quick',
      target_id: 'recorded',
      config: { sample: { size: 3, rate: 0.5 } },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toMatch(/exactly one of size/);
  });
});
