import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComparisonSchema } from '../../domain/index.js';
import { retailCards, storeRun } from '../../compare/retail.test-helpers.js';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  const { stores } = api.platform.services;
  await storeRun(stores, 'cmp-a', await retailCards('model-a'), { target_id: 'simulated-model-a' });
  await storeRun(stores, 'cmp-b', await retailCards('model-b'), { target_id: 'simulated-model-b' });
  await storeRun(stores, 'cmp-running', (await retailCards('model-a')).slice(0, 10), { status: 'running', total_cases: 327 });
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

describe('POST /api/v1/compare', () => {
  it('200: a reader gets the comparison of B with A, the refunds regression flagged', async () => {
    const r = await api.call('POST', 'v1/compare', { body: { run_ids: ['cmp-a', 'cmp-b'], options: { seed: 3, max_flipped: 5 } } });
    expect(r.status).toBe(200);
    const comparison = ComparisonSchema.parse(r.json);
    expect(comparison.options).toEqual({ seed: 3, confidence: 0.95, max_flipped: 5, alpha: 0.05 });
    const [pair] = comparison.pairs;
    expect(pair!.by_category.filter((g) => g.significant).map((g) => g.key)).toEqual(['refunds']);
    expect([pair!.flipped.newly_failing.total, pair!.flipped.newly_failing.cases.length]).toEqual([49, 5]);
    expect(pair!.verdict).toMatch(/^B is worse than A on refunds by 29\.8 points/);
    const again = await api.call('POST', 'v1/compare', { body: { run_ids: ['cmp-a', 'cmp-b'], options: { seed: 3, max_flipped: 5 } } });
    expect({ ...again.json, created_at: null }).toEqual({ ...r.json, created_at: null });
  });

  it.each<[string, unknown, string[]]>([
    ['one run', { run_ids: ['cmp-a'] }, ['body.run_ids']],
    ['eleven runs', { run_ids: Array(11).fill('cmp-a') }, ['body.run_ids']],
    ['an empty id', { run_ids: ['cmp-a', ''] }, ['body.run_ids.1']],
    ['a confidence of 1', { run_ids: ['cmp-a', 'cmp-b'], options: { confidence: 1 } }, ['body.options.confidence']],
    ['a fractional seed', { run_ids: ['cmp-a', 'cmp-b'], options: { seed: 1.5 } }, ['body.options.seed']],
    ['an unknown option', { run_ids: ['cmp-a', 'cmp-b'], options: { iterations: 5 } }, ['body.options']],
    ['an unknown field', { run_ids: ['cmp-a', 'cmp-b'], baseline: 'x' }, ['body']],
  ])('400 for %s, naming the field', async (_why, body, paths) => {
    const r = await api.call('POST', 'v1/compare', { body });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(paths);
  });

  it('404 names the unknown run; 409 for a run that has not finished', async () => {
    const missing = await api.call('POST', 'v1/compare', { body: { run_ids: ['cmp-a', 'no-such-run'] } });
    expect([missing.status, missing.json.detail]).toEqual([404, 'run "no-such-run" does not exist']);
    const running = await api.call('POST', 'v1/compare', { body: { run_ids: ['cmp-running', 'cmp-a'] } });
    expect([running.status, running.json.detail]).toEqual([409, 'run "cmp-running" is running; compare it once it has finished']);
    expect(running.headers.get('content-type')).toContain('application/problem+json');
  });

  it('401 without a key, 200 for every role that includes reading', async () => {
    const body = { run_ids: ['cmp-a', 'cmp-b'], options: { max_flipped: 0 } };
    expect((await api.call('POST', 'v1/compare', { key: null, body })).status).toBe(401);
    expect((await api.call('POST', 'v1/compare', { key: 'evalp_000000000000_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', body })).status).toBe(401);
    expect((await api.call('POST', 'v1/compare', { key: api.keys.runner, body })).status).toBe(200);
  });

  it('is in the OpenAPI document with its request and response schemas', async () => {
    const doc = (await api.call('GET', 'openapi.json')).json;
    const op = doc.paths['/v1/compare']?.post ?? doc.paths['/api/v1/compare']?.post;
    expect(op).toBeDefined();
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '409']));
  });
});
