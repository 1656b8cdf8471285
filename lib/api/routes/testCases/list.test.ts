import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleTestCase } from '../../../ports/contracts/fixtures.js';
import { FILTER_CASES } from '../../../ports/contracts/testCaseStore.contract.js';
import { startTestApi, type TestApi } from '../apiTestPlatform.test-helpers.js';

let api: TestApi;
const PAGED = Array.from({ length: 12 }, (_, i) =>
  sampleTestCase(`p-${String(i).padStart(2, '0')}`, { tags: ['paged'], category: 'paging', complexity: 1 + (i % 5) }),
);

beforeAll(async () => {
  api = await startTestApi();
  await api.platform.services.stores.testCases.upsertTestCases([...FILTER_CASES, ...PAGED]);
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

const ids = (json: { items: Array<{ id: string }> }): string[] => json.items.map((c) => c.id).sort();

describe('GET /v1/test-cases', () => {
  it.each<[string, string, string[]]>([
    ['category', 'category=travel', ['c2', 'c3']],
    ['api_version', 'api_version=v1', ['c1', 'c4', 'c5']],
    ['complexity range', 'complexity_min=2&complexity_max=4&category=travel', ['c2', 'c3']],
    ['one tag', 'tags=smoke', ['c1', 'c4']],
    ['tags any (comma-separated)', 'tags=weather,billing', ['c1', 'c4', 'c5']],
    ['tags all', 'tags=travel,%20refunds&tags_mode=all', ['c3']],
    ['full text, diacritics folded', 'q=zurich', ['c1']],
    ['full text prefix + filter', 'q=weath&complexity_min=5&api_version=v1', ['c5']],
    ['FTS syntax is text', 'q=NOT%20goodbye', ['c6']],
    ['an empty q filters nothing', 'q=&category=travel', ['c2', 'c3']],
    ['an empty tag list filters nothing', 'tags=,&category=billing', ['c4']],
  ])('filters by %s', async (_label, query, expected) => {
    const r = await api.call('GET', `v1/test-cases?${query}&limit=100`);
    expect(r.status).toBe(200);
    expect(ids(r.json)).toEqual(expected);
    expect([r.json.total, r.json.has_more]).toEqual([expected.length, false]);
  });

  it('returns whole cases without _etag', async () => {
    const r = await api.call('GET', 'v1/test-cases?q=zurich');
    expect(r.json).toEqual({ items: [FILTER_CASES[0]], total: 1, has_more: false, limit: 50, offset: 0 });
  });

  it('pages with limit/offset: total and has_more; pages are disjoint and cover every match', async () => {
    const pages = [];
    for (const offset of [0, 5, 10, 15]) pages.push((await api.call('GET', `v1/test-cases?tags=paged&limit=5&offset=${offset}`)).json);
    expect(pages.map((p) => ({ n: p.items.length, total: p.total, has_more: p.has_more, limit: p.limit, offset: p.offset }))).toEqual([
      { n: 5, total: 12, has_more: true, limit: 5, offset: 0 },
      { n: 5, total: 12, has_more: true, limit: 5, offset: 5 },
      { n: 2, total: 12, has_more: false, limit: 5, offset: 10 },
      { n: 0, total: 12, has_more: false, limit: 5, offset: 15 },
    ]);
    expect(pages.flatMap((p) => p.items.map((c: { id: string }) => c.id))).toEqual(PAGED.map((c) => c.id));
    const all = await api.call('GET', 'v1/test-cases');
    expect([all.json.total, all.json.items.length, all.json.has_more]).toEqual([18, 18, false]);
  });

  it.each<[string, string, string[]]>([
    ['complexity over 5', 'complexity_min=9', ['query.complexity_min']],
    ['complexity not a number', 'complexity_max=high', ['query.complexity_max']],
    ['an inverted range', 'complexity_min=4&complexity_max=2', ['query.complexity_min']],
    ['an unknown tags_mode', 'tags=a&tags_mode=some', ['query.tags_mode']],
    ['limit 0', 'limit=0', ['query.limit']],
    ['limit over 1000', 'limit=5000', ['query.limit']],
    ['a negative offset', 'offset=-1', ['query.offset']],
    ['an unknown parameter', 'colour=blue', ['query']],
  ])('400 for %s, naming the parameter', async (_label, query, paths) => {
    const r = await api.call('GET', `v1/test-cases?${query}`);
    expect([r.status, r.headers.get('content-type')]).toEqual([400, 'application/problem+json']);
    expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(paths);
  });
});
