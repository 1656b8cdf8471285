import { storedRunOf } from '../../ports/contracts/fixtures.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run, RunStats } from '../../domain/index.js';
import { createApiKey } from '../apiKeys.js';
import { REPORT_MARKER } from '../../reports/index.js';
import { retailRunsFixture, type RetailPlatform } from '../../reports/testing/retailPlatform.test-helpers.js';
import { parseXml } from '../../reports/testing/xmlTree.test-helpers.js';

let retail: RetailPlatform;
let head: Run & { stats: RunStats };
let base: Run & { stats: RunStats };
let reader: string;

beforeAll(async () => {
  ({ retail, head, base } = await retailRunsFixture());
  const { apiKeys, clock } = retail.platform.services;
  reader = (await createApiKey(apiKeys, { name: 'dashboard', roles: ['reader'] }, clock)).key;
});
afterAll(async () => retail?.stop());

async function get(path: string, key = reader): Promise<{ status: number; type: string | null; headers: Headers; text: string }> {
  const res = await fetch(`${retail.url}/api/${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), headers: res.headers, text: await res.text() };
}

describe('GET /api/v1/runs/{id}/report', () => {
  it.each([
    ['json', 'application/json; charset=utf-8'],
    ['markdown', 'text/markdown; charset=utf-8'],
    ['html', 'text/html; charset=utf-8'],
    ['junit', 'application/xml; charset=utf-8'],
  ])('format=%s answers %s to a reader', async (format, type) => {
    const res = await get(`v1/runs/${head.id}/report?format=${format}`);
    expect([res.status, res.type, res.headers.get('x-content-type-options')]).toEqual([200, type, 'nosniff']);
    // rendered formats are streamed (functions/setup.ts enables HTTP streams for Azure; the embedded host streams
    // either way); json is one body with a length
    const streamed = format !== 'json';
    expect([res.headers.get('transfer-encoding'), res.headers.get('content-length') === null]).toEqual([
      streamed ? 'chunked' : null,
      streamed,
    ]);
    if (format === 'json') {
      const report = JSON.parse(res.text);
      expect([report.kind, report.run.id, report.stats.passed, report.failures.total, report.comparison]).toEqual([
        'run',
        head.id,
        272,
        55,
        null,
      ]);
    }
    if (format === 'markdown') expect(res.text.startsWith(`${REPORT_MARKER}\n## `)).toBe(true);
    if (format === 'html') {
      expect(res.text.startsWith('<!doctype html>')).toBe(true);
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:",
      );
    }
    if (format === 'junit') expect(parseXml(res.text).attributes.tests).toBe('327');
  });

  it('defaults to JSON and caps the listed failures with max_failures', async () => {
    const res = await get(`v1/runs/${head.id}/report?max_failures=3`);
    const report = JSON.parse(res.text);
    expect([res.type, report.failures.total, report.failures.cases.length]).toEqual(['application/json; charset=utf-8', 55, 3]);
  });

  it.each([
    ['format=pdf', 400, 'query.format'],
    ['max_failures=-1', 400, 'query.max_failures'],
    ['bogus=1', 400, 'query'],
  ])('%s -> %i naming %s', async (query, status, path) => {
    const res = await get(`v1/runs/${head.id}/report?${query}`);
    expect([res.status, res.type]).toEqual([status, 'application/problem+json']);
    expect(JSON.parse(res.text).errors.map((e: { path: string }) => e.path)).toEqual([path]);
  });

  it('404s an unknown run in every format (problem+json, before any body is streamed), and 401s without a key', async () => {
    for (const format of ['json', 'markdown', 'html', 'junit']) {
      const res = await get(`v1/runs/nope/report?format=${format}`);
      expect([res.status, res.type, JSON.parse(res.text).detail]).toEqual([404, 'application/problem+json', 'run "nope" does not exist']);
    }
    expect((await get(`v1/runs/${head.id}/report`, '')).status).toBe(401);
  });

  it('compare=<base run> adds the comparison in every format', async () => {
    const json = JSON.parse((await get(`v1/runs/${head.id}/report?compare=${base.id}`)).text);
    expect([json.comparison.base_run.id, json.comparison.comparison.run_ids]).toEqual([base.id, [base.id, head.id]]);
    expect((await get(`v1/runs/${head.id}/report?format=markdown&compare=${base.id}`)).text).toContain(
      `### Compared with base run ${base.id} `,
    );
    expect((await get(`v1/runs/${head.id}/report?format=html&compare=${base.id}`)).text).toContain('<canvas id="chart-flipped">');
  });

  it('404s an unknown base run and 409s an unfinished one', async () => {
    const unknown = await get(`v1/runs/${head.id}/report?format=markdown&compare=nope`);
    expect([unknown.status, unknown.type, JSON.parse(unknown.text).detail]).toEqual([
      404,
      'application/problem+json',
      'run "nope" does not exist',
    ]);
    const run = storedRunOf(base);
    await retail.platform.services.stores.runs.createRun({ ...run, id: 'still-running', status: 'running', completed_at: null });
    const running = await get(`v1/runs/${head.id}/report?format=markdown&compare=still-running`);
    expect([running.status, running.type]).toEqual([409, 'application/problem+json']);
    expect(JSON.parse(running.text).detail).toMatch(/still-running.*running/);
  });
});
