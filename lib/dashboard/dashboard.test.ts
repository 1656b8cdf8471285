/**
 * The dashboard in real Chromium against a real embedded platform (one platform, one browser for the whole file):
 * sign in, watch a run finish, open a failure's diff, compare two runs, see a trend of three runs, hit an ETag
 * conflict, import with row errors, role-based navigation, the HTTP answers (CSP, caching), and axe-core on
 * every view. Screenshots go to docs/screenshots/ (the README shows them).
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';
import { packageRoot } from '../app/packageRoot.js';
import { DEMO_SUITE_ID, DEMO_TARGETS, demoRunConfig, loadRetailSample } from '../app/demo.js';
import { createApiKey } from '../api/apiKeys.js';
import { ROLES } from '../domain/roles.js';
import { silentLogger } from '../host/index.js';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH, launchChromium } from '../reports/testing/chromium.test-helpers.js';

/** The page's document inside page functions (the project compiles without the DOM library). */
declare const document: {
  querySelector(selector: string): { getAttribute(name: string): string | null; textContent: string | null } | null;
  querySelectorAll(selector: string): Iterable<{ textContent: string | null }>;
};

/** without Chromium the file is skipped locally (launchChromium says why) and fails in CI */
const skip = !existsSync(CHROMIUM_PATH) && !process.env.CI;

const ROOT = packageRoot();
const SAMPLE = join(ROOT, 'examples', 'retail');
const SHOTS = join(ROOT, 'docs', 'screenshots');

let platform: EmbeddedPlatform;
let dataDir: string;
let adminKey: string;
let readerKey: string;
let browser: Browser | undefined;
let context: BrowserContext;
let page: Page;
let axeSource: string;
/** CSP violations and page errors seen by any page of the file: must stay empty */
const pageProblems: string[] = [];
const runIds: string[] = [];

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${adminKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, headers: res.headers };
}

async function startRun(target: string, baseline?: string): Promise<string> {
  const r = await call('POST', 'v1/runs', {
    suite_id: DEMO_SUITE_ID,
    target_id: target,
    triggered_by: 'demo',
    config: demoRunConfig(SAMPLE),
    ...(baseline ? { baseline_run_id: baseline } : {}),
  });
  expect(r.status).toBe(202);
  runIds.push(r.json.id);
  return r.json.id as string;
}

async function waitCompleted(id: string): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    const r = await call('GET', `v1/runs/${id}`);
    if (r.json.status === 'completed') return;
    if (['failed', 'cancelled', 'timed_out'].includes(r.json.status)) throw new Error(`run ${id} ended ${r.json.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`run ${id} did not complete`);
}

/** axe-core in the page (evaluated through the DevTools protocol, which the page's CSP does not govern). */
async function seriousViolations(): Promise<string[]> {
  await page.evaluate(`${axeSource};0`);
  const results = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  };
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

async function open(hash: string): Promise<void> {
  await page.goto(`${platform.url}/#/${hash}`);
}

beforeAll(async () => {
  if (skip) return;
  browser = await launchChromium((why) => {
    throw new Error(why);
  });
  // the dashboard exactly as `npm install` builds it, from the sources under test
  await build({ configFile: join(ROOT, 'web', 'vite.config.mjs'), logLevel: 'error' });
  axeSource = await readFile(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  await mkdir(SHOTS, { recursive: true });
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-dashboard-'));
  platform = await startEmbeddedPlatform({
    dataDir,
    port: 0,
    logger: silentLogger,
    env: { ...process.env, EVALP_API_RATE_LIMIT_RPS: '0' },
  });
  const { apiKeys, clock } = platform.services;
  adminKey = (await createApiKey(apiKeys, { name: 'admin', roles: [...ROLES] }, clock)).key;
  readerKey = (await createApiKey(apiKeys, { name: 'viewer', roles: ['reader'] }, clock)).key;
  await loadRetailSample(platform.services, SAMPLE);
  context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) pageProblems.push(m.text());
  });
  page.on('pageerror', (e) => pageProblems.push(e.message));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop({ timeoutInMs: 5_000 });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe.skipIf(skip)('dashboard over HTTP', () => {
  it('serves the page at / with a strict CSP, hashed assets cached for a year, and leaves /api to the API', async () => {
    const index = await fetch(`${platform.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await index.text();
    const asset = /src="(\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(`${platform.url}${asset}`);
    expect([js.status, js.headers.get('cache-control'), js.headers.get('content-type')]).toEqual([
      200,
      'public, max-age=31536000, immutable',
      'text/javascript; charset=utf-8',
    ]);
    const missing = await fetch(`${platform.url}/api/v1/nothing-here`);
    expect([missing.status, missing.headers.get('content-type')]).toEqual([404, 'application/problem+json']);
    expect((await fetch(`${platform.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${platform.url}/%2e%2e/package.json`)).status).toBe(404);
    expect(await (await fetch(`${platform.url}/config.json`)).json()).toEqual({ entra: null });
  });
});

describe.skipIf(skip)('dashboard in Chromium', () => {
  it('signs in with an API key kept for the tab, and watches a run progress to completion in the run list', async () => {
    await open('runs');
    await expect(page.getByLabel('API key').isVisible()).resolves.toBe(true);
    expect(await seriousViolations()).toEqual([]);
    await page.getByLabel('API key').fill('evalp_wrong_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('401');
    await page.getByLabel('API key').fill(adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('who').waitFor();
    expect(await page.getByTestId('who').textContent()).toContain('admin');
    expect(await page.evaluate("sessionStorage.getItem('evalp.apiKey')")).toBe(adminKey);
    expect(await page.evaluate('localStorage.length')).toBe(0);

    // the page is open before the run exists: the list must pick it up and follow it without a reload
    const id = await startRun(DEMO_TARGETS[0].id);
    const row = page.locator('#runs-table tbody tr', { hasText: id });
    await row.waitFor({ timeout: 30_000 });
    const seen = new Set<string>();
    for (let i = 0; i < 600; i += 1) {
      seen.add((await row.locator('.status').textContent()) ?? '');
      if (seen.has('completed')) break;
      await page.waitForTimeout(100);
    }
    expect(seen.has('completed')).toBe(true);
    await waitCompleted(id);
    const stats = (await call('GET', `v1/runs/${id}`)).json.stats;
    await page.waitForFunction(
      (runId) => document.querySelector(`#runs-table tbody tr:has(a[href$="${runId}"]) progress`)?.getAttribute('value') === '100',
      id,
    );
    expect(await row.getByTestId('pass-rate').textContent()).toBe(`${(stats.pass_rate * 100).toFixed(1)}%`);
    expect(await seriousViolations()).toEqual([]);
  }, 120_000);

  it('opens a failure of the run and shows expected vs actual calls side by side, with the raw output', async () => {
    const id = runIds[0]!;
    const failures = (await call('GET', `v1/runs/${id}/failures?failing_stage=logic&limit=1`)).json.items;
    expect(failures.length).toBe(1);
    const caseId: string = failures[0].test_case_id;
    await open(`runs/${id}`);
    await page.getByTestId('run-progress').waitFor();
    expect(await page.getByTestId('run-progress').textContent()).toBe('100%');
    await page.locator('#failures-table').waitFor();
    await page.getByLabel('Filter failed cases').fill(caseId);
    await page.locator('#failures-table').getByRole('button', { name: caseId, exact: true }).click();
    const diff = page.getByTestId('failure-detail').getByTestId('call-diff').first();
    await diff.waitFor();
    const gold = (await call('GET', `v1/test-cases/${encodeURIComponent(caseId)}`)).json;
    const text = (await diff.textContent()) ?? '';
    expect(text).toMatch(/\d+ lines? differ/);
    for (const call of gold.expected_tool_calls) expect(text).toContain(`"tool_name": "${call.tool_name}"`);
    for (const call of failures[0].generated_tool_calls) expect(text).toContain(`"tool_name": "${call.tool_name}"`);
    expect(await page.locator('tr.diff-changed, tr.diff-added, tr.diff-removed').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('failure-detail').textContent()).toContain(failures[0].stages[0].message);
    expect(await page.getByTestId('raw-output').textContent()).toContain('"nl_response"');
    // the failures table sorts: by latency, descending after two clicks
    const header = page.locator('#failures-table th', { hasText: 'Latency' });
    await header.getByRole('button').click();
    await header.getByRole('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    await page.getByTestId('failure-detail').scrollIntoViewIfNeeded();
    await shot('run-failure');
    expect(await seriousViolations()).toEqual([]);
  }, 60_000);

  it('compares the two models: runs picked in the list, paired statistics and a flipped case with its diff', async () => {
    const a = runIds[0]!;
    const b = await startRun(DEMO_TARGETS[1].id, a);
    await waitCompleted(b);
    await open('runs');
    await page.getByLabel(`select run ${a} to compare`).check();
    await page.getByLabel(`select run ${b} to compare`).check();
    await page.getByRole('button', { name: /Compare 2 selected/ }).click();
    await page.getByTestId('verdict').waitFor({ timeout: 30_000 });
    const api = (await call('POST', 'v1/compare', { run_ids: [b, a] })).json;
    // the list is newest first, so the checkboxes picked b then... whichever order: the page shows the API's own verdict
    const shownIds = new URL(page.url().replace('#/', '')).searchParams.get('runs')!.split(',');
    const expected = (await call('POST', 'v1/compare', { run_ids: shownIds })).json;
    expect(await page.getByTestId('verdict').textContent()).toBe(expected.pairs[0].verdict);
    expect(api.pairs[0].overall.paired_cases).toBe(expected.pairs[0].overall.paired_cases);
    const flips = page.locator(`#flips-${shownIds[1]} tbody tr`);
    const flipTotal = expected.pairs[0].flipped.newly_failing.cases.length + expected.pairs[0].flipped.newly_passing.cases.length;
    expect(flipTotal).toBeGreaterThan(0);
    expect(await flips.count()).toBe(flipTotal);
    await flips.first().getByRole('button').click();
    const diff = page.locator('.pair').getByTestId('call-diff');
    await diff.waitFor();
    expect(await diff.textContent()).toContain('"passed": true');
    expect(await diff.textContent()).toContain('"passed": false');
    await page.getByTestId('verdict').scrollIntoViewIfNeeded();
    await shot('compare');
    expect(await seriousViolations()).toEqual([]);
  }, 120_000);

  it('shows a trend of three nightly runs on three days, with the alerts marked', async () => {
    const c = await startRun(DEMO_TARGETS[0].id);
    await waitCompleted(c);
    // three real runs, back-dated to three consecutive nights so the trend has one point a day
    const day = (d: number): string => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
    const dates = [day(2), day(1), day(0)];
    for (const [i, id] of runIds.entries()) await platform.services.stores.runs.updateRun(id, { created_at: `${dates[i]}T02:00:00.000Z` });
    const trend = (await call('GET', `v1/trends?from=${dates[0]}&to=${dates[2]}&group_by=client`)).json;
    expect(trend.runs).toBe(3);
    expect(trend.series[0].points.map((p: { date: string }) => p.date)).toEqual(dates);
    await open(`trends?from=${dates[0]}&to=${dates[2]}&group_by=client`);
    await page.getByTestId('trend-summary').waitFor();
    expect(await page.getByTestId('trend-summary').textContent()).toContain(
      `3 completed runs from ${dates[0]} to ${dates[2]}, 1 series, ${trend.alerts.length} alert`,
    );
    expect(await page.locator('#trend-table tbody tr').count()).toBe(3);
    for (const p of trend.series[0].points) {
      expect(await page.locator('#trend-table tbody tr', { hasText: p.date }).textContent()).toContain(
        `${(p.pass_rate * 100).toFixed(1)}%`,
      );
    }
    const alertDays = trend.series[0].points.filter((p: { run_ids: string[] }) =>
      p.run_ids.some((id) => trend.alerts.some((al: { run_id: string }) => al.run_id === id)),
    );
    expect(await page.locator('#trend-table tbody tr', { hasText: 'alert' }).count()).toBe(alertDays.length);
    for (const id of ['trend-pass', 'trend-p95', 'trend-cost']) expect(await page.getByTestId(id).isVisible()).toBe(true);
    await page.waitForTimeout(200);
    await shot('trends');
    expect(await seriousViolations()).toEqual([]);
    await open('runs');
    await page.locator('#runs-table tbody tr').nth(2).waitFor();
    await shot('runs');
  }, 120_000);

  it('edits a gold case with If-Match: a stale ETag shows the 412 conflict, a reload then saves', async () => {
    const list = (await call('GET', 'v1/test-cases?limit=1')).json.items;
    const id: string = list[0].id;
    await open(`gold/${encodeURIComponent(id)}`);
    await page.getByLabel('Edit the case (JSON)').waitFor();
    const staleEtag = await page.getByTestId('case-etag').textContent();
    // someone else saves the case after the page read it
    const current = await call('GET', `v1/test-cases/${encodeURIComponent(id)}`);
    const theirs = await call(
      'PUT',
      `v1/test-cases/${encodeURIComponent(id)}`,
      { ...current.json, nl_query: `${current.json.nl_query} (edited elsewhere)` },
      { 'if-match': current.headers.get('etag')! },
    );
    expect(theirs.status).toBe(200);
    const mine = JSON.parse(await page.getByLabel('Edit the case (JSON)').inputValue());
    await page.getByLabel('Edit the case (JSON)').fill(JSON.stringify({ ...mine, nl_query: 'my edit' }, null, 2));
    await page.getByRole('button', { name: 'Save with If-Match' }).click();
    await page.getByTestId('conflict').waitFor();
    expect(await page.getByTestId('conflict').textContent()).toContain('412');
    expect((await call('GET', `v1/test-cases/${encodeURIComponent(id)}`)).json.nl_query).toContain('(edited elsewhere)');
    await shot('gold-conflict');
    expect(await seriousViolations()).toEqual([]);
    await page.getByRole('button', { name: 'Reload the latest version' }).click();
    await page.waitForFunction((stale) => document.querySelector('[data-testid="case-etag"]')?.textContent !== stale, staleEtag);
    const fresh = JSON.parse(await page.getByLabel('Edit the case (JSON)').inputValue());
    expect(fresh.nl_query).toContain('(edited elsewhere)');
    await page.getByLabel('Edit the case (JSON)').fill(JSON.stringify({ ...fresh, nl_query: 'my edit' }, null, 2));
    await page.getByRole('button', { name: 'Save with If-Match' }).click();
    await page.getByText(/^Saved; new ETag/).waitFor();
    expect((await call('GET', `v1/test-cases/${encodeURIComponent(id)}`)).json.nl_query).toBe('my edit');
  }, 60_000);

  it('imports a file and lists each bad row with its field and reason', async () => {
    await open('gold');
    await page.locator('#cases-table').waitFor();
    expect(await seriousViolations()).toEqual([]);
    const good = {
      id: 'ui-import-1',
      nl_query: 'How many orders did I place?',
      expected_tool_calls: [{ tool_name: 'list_orders', arguments: {} }],
      metadata: { complexity_level: 1, tags: [] },
    };
    const bad = {
      id: 'ui-import-2',
      nl_query: 'Refund it',
      expected_tool_calls: [{ tool_name: 'refund', arguments: {} }],
      metadata: { complexity_level: 9, tags: [] },
    };
    await page.locator('input[type=file]').setInputFiles({
      name: 'cases.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(`${JSON.stringify(good)}\n${JSON.stringify(bad)}\n`),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByTestId('import-result').waitFor();
    expect(await page.getByTestId('import-result').textContent()).toContain('2 rows read: 1 imported (1 new, 0 updated), 1 row error.');
    const errorRow = page.locator('#import-errors tbody tr');
    expect(await errorRow.count()).toBe(1);
    expect(await errorRow.textContent()).toContain('metadata.complexity_level');
    expect((await call('GET', 'v1/test-cases/ui-import-1')).status).toBe(200);
    expect(await seriousViolations()).toEqual([]);
  }, 60_000);

  it('shows the admin views to an admin and hides what a reader may not do', async () => {
    for (const view of ['targets', 'clients', 'alerts', 'dead-letters']) {
      await open(view);
      await page.locator('h1').waitFor();
      await page.locator('table').first().waitFor();
      expect(await page.locator('[role=alert]').count()).toBe(0);
      expect(await seriousViolations(), view).toEqual([]);
    }
    await open('alerts');
    await page.locator('#alerts-table').waitFor();
    const ackButtons = page.locator('#alerts-table').getByRole('button', { name: 'Acknowledge', exact: true });
    const open_ = (await call('GET', 'v1/alerts?limit=500')).json.items.filter(
      (a: { acknowledged_at: string | null }) => !a.acknowledged_at,
    );
    expect(open_.length).toBeGreaterThan(0);
    expect(await ackButtons.count()).toBe(open_.length);
    await ackButtons.first().click();
    await page.waitForFunction(
      (left) => [...document.querySelectorAll('#alerts-table tbody button')].filter((b) => b.textContent === 'Acknowledge').length === left,
      open_.length - 1,
    );
    const acked = (await call('GET', 'v1/alerts?limit=500')).json.items.filter(
      (a: { acknowledged_by: string | null }) => a.acknowledged_by === 'admin',
    );
    expect(acked.length).toBe(1);
    // a reader: no dead letters in the navigation, the case read-only, no import form
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').fill(readerKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('who').waitFor();
    const nav = (await page.getByRole('navigation', { name: 'Views' }).textContent()) ?? '';
    expect(nav).toContain('Runs');
    expect(nav).not.toContain('Dead letters');
    await open('gold');
    await page.locator('#cases-table').waitFor();
    expect(await page.getByRole('heading', { name: 'Import cases' }).count()).toBe(0);
    await open('alerts');
    await page.locator('#alerts-table').waitFor();
    expect(await page.locator('#alerts-table').getByRole('button', { name: 'Acknowledge', exact: true }).count()).toBe(0);
    await open('dead-letters');
    expect(await page.getByRole('alert').textContent()).toContain('not a view you may open');
    // and the API refuses it too
    expect(
      (await fetch(`${platform.url}/api/v1/dead-letters/judge-cases`, { headers: { authorization: `Bearer ${readerKey}` } })).status,
    ).toBe(403);
  }, 90_000);

  it('met no Content-Security-Policy violation and no page error on any view', () => {
    expect(pageProblems).toEqual([]);
  });
});
