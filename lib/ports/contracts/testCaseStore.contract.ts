import { describe, expect, it } from 'vitest';
import type { TestCaseFilter } from '../../domain/index.js';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../errors.js';
import type { TestCaseStore } from '../testCaseStore.js';
import { collect, sampleTestCase, type StoreFactory } from './fixtures.js';

/** A small gold set covering every filter dimension. */
export const FILTER_CASES = [
  sampleTestCase('c1', {
    nl_query: "What's the weather in Zürich tomorrow?",
    expected_nl_response: 'It will be sunny in Zurich.',
    tags: ['weather', 'smoke'],
    category: 'weather',
    complexity: 1,
    api_version: 'v1',
  }),
  sampleTestCase('c2', {
    nl_query: 'Book a flight from Berlin to Tokyo',
    expected_nl_response: 'Your flight is booked.',
    tags: ['travel'],
    category: 'travel',
    complexity: 3,
    api_version: 'v2',
  }),
  sampleTestCase('c3', {
    nl_query: 'Cancel my hotel AND refund the deposit',
    tags: ['travel', 'refunds'],
    category: 'travel',
    complexity: 4,
    api_version: 'v2',
  }),
  sampleTestCase('c4', {
    nl_query: 'Get the invoice total for order 42',
    tags: ['billing', 'smoke'],
    category: 'billing',
    complexity: 2,
    api_version: 'v1',
  }),
  sampleTestCase('c5', {
    nl_query: 'Call get_weather for Paris and London',
    tags: ['weather'],
    category: 'weather',
    complexity: 5,
    api_version: 'v1',
  }),
  sampleTestCase('c6', { nl_query: 'Say "hello" NOT goodbye', complexity: 1 }),
];

const FILTERS: Array<[string, TestCaseFilter, string[]]> = [
  ['no filter', {}, ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']],
  ['category', { category: 'travel' }, ['c2', 'c3']],
  ['api_version', { api_version: 'v1' }, ['c1', 'c4', 'c5']],
  ['complexity_min', { complexity_min: 3 }, ['c2', 'c3', 'c5']],
  ['complexity_max', { complexity_max: 2 }, ['c1', 'c4', 'c6']],
  ['complexity range', { complexity_min: 2, complexity_max: 4 }, ['c2', 'c3', 'c4']],
  ['one tag', { tags: ['smoke'] }, ['c1', 'c4']],
  ['tags any', { tags: ['weather', 'billing'] }, ['c1', 'c4', 'c5']],
  ['tags any (explicit), repeated tag', { tags: ['billing', 'billing'], tags_mode: 'any' }, ['c4']],
  ['tags all', { tags: ['travel', 'refunds'], tags_mode: 'all' }, ['c3']],
  ['tags all, other order', { tags: ['smoke', 'weather'], tags_mode: 'all' }, ['c1']],
  ['unknown tag', { tags: ['nope'] }, []],
  ['empty tag list filters nothing', { tags: [] }, ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']],
  ['q in question and tags', { q: 'weather' }, ['c1', 'c5']],
  ['q without diacritics', { q: 'zurich' }, ['c1']],
  ['q with diacritics', { q: 'ZÜRICH' }, ['c1']],
  ['q in expected answer', { q: 'sunny' }, ['c1']],
  ['q in tags', { q: 'refunds' }, ['c3']],
  ['q prefix on the last term', { q: 'berl' }, ['c2']],
  ['q terms are ANDed', { q: 'flight tok' }, ['c2']],
  ['q only the last term is a prefix', { q: 'tok flight' }, []],
  ['q tokenized phrase', { q: 'get_weather' }, ['c5']],
  ['q FTS keyword AND is text', { q: 'AND' }, ['c3', 'c5']],
  ['q quotes are text', { q: '"hello"' }, ['c6']],
  ['q FTS keyword NOT is text', { q: 'NOT goodbye' }, ['c6']],
  ['q with no word matches nothing', { q: '*' }, []],
  ['q with a lone parenthesis', { q: '(' }, []],
  ['q column syntax is text', { q: 'nl_query:hello' }, []],
  ['q + category + complexity', { q: 'weather', category: 'weather', complexity_min: 5 }, ['c5']],
  ['q + tag', { q: 'travel', tags: ['refunds'] }, ['c3']],
  ['tags any + category', { tags: ['weather', 'travel'], category: 'travel' }, ['c2', 'c3']],
  ['tag + api_version + complexity', { tags: ['smoke'], api_version: 'v1', complexity_max: 1 }, ['c1']],
];

/** Questions for the near-duplicate search: two copies of one question (up to case and punctuation), a
 * reworded one, and unrelated ones. */
export const SIMILAR_CASES = [
  sampleTestCase('d1', { nl_query: 'What is the weather in Paris tomorrow?' }),
  sampleTestCase('d2', { nl_query: "what's the weather in paris tomorrow" }),
  sampleTestCase('d3', { nl_query: 'Will it rain in Paris tomorrow morning, and how warm will it be?' }),
  sampleTestCase('d4', { nl_query: 'Book a flight from Berlin to Tokyo next Friday' }),
  sampleTestCase('d5', { nl_query: 'Cancel my hotel reservation in Paris' }),
  sampleTestCase('d6', { nl_query: 'WHAT IS THE WEATHER IN PARIS TOMORROW!!' }),
];

const sortedIds = (items: Array<{ id: string }>): string[] => items.map((item) => item.id).sort();

/**
 * The TestCaseStore contract: create/get/replace/delete semantics with ETags, batch upserts with created and
 * updated counts, getTestCases order, every filter (alone and combined, `q` never parsed as FTS syntax), paging
 * with total and has_more, counts equal to list totals, id streams across their internal pages, and filters that
 * follow replaces and deletes. Orders are adapter-defined: results are compared as sets unless stated.
 */
export function testCaseStoreContract(name: string, createStore: StoreFactory<TestCaseStore>): void {
  describe(`${name}: TestCaseStore contract`, () => {
    it('creates and gets a case with an ETag; refuses an existing id (ConflictError)', async () => {
      const store = await createStore();
      const created = await store.createTestCase(FILTER_CASES[0]!);
      expect(created).toEqual({ ...FILTER_CASES[0], _etag: expect.any(String) });
      expect(await store.getTestCase('c1')).toEqual(created);
      await expect(store.createTestCase(FILTER_CASES[0]!)).rejects.toBeInstanceOf(ConflictError);
      expect(await store.getTestCase('missing')).toBeUndefined();
    });

    it('replaces with ETag checks: stale -> PreconditionFailedError, missing -> NotFoundError', async () => {
      const store = await createStore();
      const created = await store.createTestCase(FILTER_CASES[0]!);
      const changed = { ...FILTER_CASES[0]!, nl_query: 'Changed question' };
      const replaced = await store.replaceTestCase(changed, { ifMatch: created._etag });
      expect(replaced).toEqual({ ...changed, _etag: expect.any(String) });
      expect(replaced._etag).not.toBe(created._etag);
      await expect(store.replaceTestCase(FILTER_CASES[0]!, { ifMatch: created._etag })).rejects.toBeInstanceOf(PreconditionFailedError);
      await expect(store.replaceTestCase(FILTER_CASES[1]!)).rejects.toBeInstanceOf(NotFoundError);
      expect(await store.getTestCase('c1')).toEqual(replaced);
      expect(await store.getTestCase('c2')).toBeUndefined();
      const reread = await store.replaceTestCase({ ...replaced, nl_query: 'Again' }, { ifMatch: replaced._etag });
      expect(await store.getTestCase('c1')).toEqual({ ...changed, nl_query: 'Again', _etag: reread._etag });
    });

    it('upserts in batches and reports created vs updated', async () => {
      const store = await createStore();
      expect(await store.upsertTestCases(FILTER_CASES.slice(0, 2))).toEqual({ created: 2, updated: 0 });
      const changed = { ...FILTER_CASES[1]!, nl_query: 'Updated' };
      expect(await store.upsertTestCases([changed, FILTER_CASES[2]!])).toEqual({ created: 1, updated: 1 });
      expect(await store.upsertTestCases([])).toEqual({ created: 0, updated: 0 });
      expect(await store.getTestCase('c2')).toEqual({ ...changed, _etag: expect.any(String) });
      expect(await store.countTestCases()).toBe(3);
    });

    it('deletes idempotently, and a deleted case leaves every list, count and search', async () => {
      const store = await createStore();
      await store.upsertTestCases(FILTER_CASES);
      await store.deleteTestCase('c1');
      await store.deleteTestCase('c1');
      await store.deleteTestCase('never-existed');
      expect(await store.getTestCase('c1')).toBeUndefined();
      expect(await store.getTestCases(['c1', 'c2'])).toEqual([FILTER_CASES[1]]);
      for (const filter of [{}, { tags: ['smoke'] }, { q: 'zurich' }, { category: 'weather' }] satisfies TestCaseFilter[]) {
        expect(sortedIds((await store.listTestCases(filter)).items)).not.toContain('c1');
        expect((await collect(store.listTestCaseIds(filter))).includes('c1')).toBe(false);
      }
      expect(await store.countTestCases({ tags: ['smoke'] })).toBe(1);
      await store.createTestCase(FILTER_CASES[0]!);
      expect(sortedIds((await store.listTestCases({ q: 'zurich' })).items)).toEqual(['c1']);
    });

    it('gets many cases in the order asked, leaving out missing ids, across chunks', async () => {
      const store = await createStore();
      const cases = Array.from({ length: 1_200 }, (_, i) => sampleTestCase(`m-${i}`));
      await store.upsertTestCases(cases);
      const ids = [...cases.map((c) => c.id)].reverse();
      ids.splice(600, 0, 'missing-1', 'm-3');
      ids.push('missing-2');
      const got = await store.getTestCases(ids);
      expect(got.map((c) => c.id)).toEqual(ids.filter((id) => !id.startsWith('missing')));
      expect(got[0]).toEqual(cases[1_199]);
      expect(await store.getTestCases([])).toEqual([]);
    });

    it.each(FILTERS)('filters: %s', async (_label, filter, expected) => {
      const store = await createStore();
      await store.upsertTestCases(FILTER_CASES);
      const page = await store.listTestCases(filter, { limit: 100 });
      const byId = [...page.items].sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(byId).toEqual(expected.map((id) => ({ ...FILTER_CASES.find((c) => c.id === id), _etag: expect.any(String) })));
      expect({ total: page.total, has_more: page.has_more }).toEqual({ total: expected.length, has_more: false });
      expect(await store.countTestCases(filter)).toBe(expected.length);
      expect((await collect(store.listTestCaseIds(filter))).sort()).toEqual(expected);
    });

    it('pages with total and has_more; pages are disjoint, stable and cover every match', async () => {
      const store = await createStore();
      const cases = Array.from({ length: 12 }, (_, i) =>
        sampleTestCase(`p-${String(i).padStart(2, '0')}`, { tags: i % 3 === 0 ? ['other'] : ['travel'] }),
      );
      await store.upsertTestCases(cases);
      const filter = { tags: ['travel'] };
      const pages = [];
      for (const offset of [0, 3, 6, 9]) pages.push(await store.listTestCases(filter, { limit: 3, offset }));
      expect(pages.map((p) => ({ n: p.items.length, total: p.total, has_more: p.has_more, limit: p.limit, offset: p.offset }))).toEqual([
        { n: 3, total: 8, has_more: true, limit: 3, offset: 0 },
        { n: 3, total: 8, has_more: true, limit: 3, offset: 3 },
        { n: 2, total: 8, has_more: false, limit: 3, offset: 6 },
        { n: 0, total: 8, has_more: false, limit: 3, offset: 9 },
      ]);
      const ids = pages.flatMap((p) => p.items.map((c) => c.id));
      expect(new Set(ids).size).toBe(8);
      expect([...ids].sort()).toEqual(cases.filter((_, i) => i % 3 !== 0).map((c) => c.id));
      const again = await store.listTestCases(filter, { limit: 3, offset: 3 });
      expect(again.items.map((c) => c.id)).toEqual(pages[1]!.items.map((c) => c.id));
      expect(await store.listTestCases({}, {})).toMatchObject({ total: 12, has_more: false, limit: 50, offset: 0 });
    });

    it('streams every matching id once, in the same order each time, across internal pages', async () => {
      const store = await createStore();
      const cases = Array.from({ length: 2_345 }, (_, i) => sampleTestCase(`s-${i}`, { category: i % 5 === 0 ? 'five' : 'rest' }));
      for (let i = 0; i < cases.length; i += 1_000) await store.upsertTestCases(cases.slice(i, i + 1_000));
      const all = await collect(store.listTestCaseIds());
      expect(all).toHaveLength(2_345);
      expect(new Set(all).size).toBe(2_345);
      expect(await collect(store.listTestCaseIds())).toEqual(all);
      const five = await collect(store.listTestCaseIds({ category: 'five' }));
      expect([...five].sort()).toEqual(
        cases
          .filter((_, i) => i % 5 === 0)
          .map((c) => c.id)
          .sort(),
      );
      expect(five).toEqual(all.filter((id) => Number(id.slice(2)) % 5 === 0));
    });

    it('finds near-duplicates of a text: the same question first (score ~1), then reworded ones, best first', async () => {
      const store = await createStore();
      await store.upsertTestCases(SIMILAR_CASES);
      const found = await store.findSimilarTestCases('What is the weather in Paris tomorrow?', { limit: 10, minScore: 0 });
      expect(found.slice(0, 2)).toEqual([
        { id: 'd1', nl_query: SIMILAR_CASES[0]!.nl_query, score: expect.closeTo(1, 2) },
        { id: 'd6', nl_query: SIMILAR_CASES[5]!.nl_query, score: expect.closeTo(1, 2) },
      ]);
      expect(found[2]).toMatchObject({ id: 'd2' });
      const scores = found.map((f) => f.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(scores.every((x) => x >= 0 && x <= 1)).toBe(true);
      const score = (id: string) => found.find((f) => f.id === id)?.score ?? 0;
      expect(score('d2')).toBeGreaterThan(score('d3'));
      expect(score('d2')).toBeGreaterThan(score('d4'));
    });

    it('similar: limit, minScore, ties by id, and texts that cannot match', async () => {
      const store = await createStore();
      await store.upsertTestCases(SIMILAR_CASES);
      const text = 'what is the weather in paris tomorrow';
      expect((await store.findSimilarTestCases(text, { limit: 2, minScore: 0 })).map((f) => f.id)).toEqual(['d1', 'd6']);
      const strict = await store.findSimilarTestCases(text, { minScore: 0.9 });
      expect(strict.map((f) => f.id)).toEqual(expect.arrayContaining(['d1', 'd6']));
      expect(strict.map((f) => f.id)).not.toContain('d4');
      expect(strict.every((f) => f.score >= 0.9)).toBe(true);
      expect(await store.findSimilarTestCases('?!', { minScore: 0 })).toEqual([]);
      expect(await store.findSimilarTestCases('', { minScore: 0 })).toEqual([]);
      const empty = await createStore();
      expect(await empty.findSimilarTestCases(text, { minScore: 0 })).toEqual([]);
    });

    it('similar follows deletes and replaces', async () => {
      const store = await createStore();
      await store.upsertTestCases(SIMILAR_CASES);
      await store.deleteTestCase('d1');
      await store.replaceTestCase({ ...SIMILAR_CASES[5]!, nl_query: 'Show the invoice total for order 42' });
      const found = await store.findSimilarTestCases('What is the weather in Paris tomorrow?', { minScore: 0.8 });
      expect(found.map((f) => f.id)).toEqual(['d2']);
      const moved = await store.findSimilarTestCases('show the invoice total for order 42', { limit: 1 });
      expect(moved).toEqual([{ id: 'd6', nl_query: 'Show the invoice total for order 42', score: expect.closeTo(1, 2) }]);
    });

    it('keeps filters in step with replaces and upserts', async () => {
      const store = await createStore();
      await store.upsertTestCases(FILTER_CASES);
      const current = await store.getTestCase('c1');
      await store.replaceTestCase(
        {
          ...FILTER_CASES[0]!,
          nl_query: 'Different text',
          expected_nl_response: 'Another answer',
          metadata: { complexity_level: 5, tags: ['x'], category: 'misc' },
        },
        { ifMatch: current!._etag },
      );
      await store.upsertTestCases([{ ...FILTER_CASES[3]!, metadata: { ...FILTER_CASES[3]!.metadata, tags: [] } }]);
      const ids = async (filter: TestCaseFilter) => sortedIds((await store.listTestCases(filter)).items);
      expect(await ids({ tags: ['smoke'] })).toEqual([]);
      expect(await ids({ tags: ['x'] })).toEqual(['c1']);
      expect(await ids({ q: 'zurich' })).toEqual([]);
      expect(await ids({ q: 'different' })).toEqual(['c1']);
      expect(await ids({ category: 'weather' })).toEqual(['c5']);
      expect(await ids({ complexity_min: 5 })).toEqual(['c1', 'c5']);
      expect(await store.countTestCases()).toBe(6);
    });
  });
}
