import { afterEach, describe, expect, it } from 'vitest';
import type { TestCase } from '../../domain/index.js';
import { collect, sampleTestCase } from '../../ports/contracts/fixtures.js';
import { FILTER_CASES, testCaseStoreContract } from '../../ports/contracts/testCaseStore.contract.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';
import { EmbeddedTestCaseStore } from './testCaseStore.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

testCaseStoreContract('EmbeddedTestCaseStore', () => new EmbeddedTestCaseStore(temps.open().db));

function rowCounts(temp: ReturnType<TempDatabases['open']>): Record<string, number> {
  const count = (sql: string) => (temp.db.prepare(sql).get() as { n: number }).n;
  return {
    cases: count('SELECT count(*) AS n FROM st_test_cases'),
    bodies: count('SELECT count(*) AS n FROM st_test_case_bodies'),
    tags: count('SELECT count(*) AS n FROM st_test_case_tags'),
    fts: count(
      "SELECT count(*) AS n FROM st_test_case_fts WHERE st_test_case_fts MATCH 'zurich OR flight OR hotel OR invoice OR paris OR hello'",
    ),
  };
}

describe('EmbeddedTestCaseStore (embedded specifics)', () => {
  it('lists and streams in store order: first insertion, kept on update, a re-created case goes last', async () => {
    const store = new EmbeddedTestCaseStore(temps.open().db);
    await store.upsertTestCases([sampleTestCase('z'), sampleTestCase('a'), sampleTestCase('m')]);
    await store.upsertTestCases([{ ...sampleTestCase('z'), nl_query: 'changed' }]);
    await store.deleteTestCase('a');
    await store.createTestCase(sampleTestCase('a'));
    expect((await store.listTestCases()).items.map((c) => c.id)).toEqual(['z', 'm', 'a']);
    expect(await collect(store.listTestCaseIds())).toEqual(['z', 'm', 'a']);
  });

  it.each([
    '"',
    '""',
    '*',
    'AND',
    'OR NOT',
    'a AND',
    'NEAR(hello goodbye, 2)',
    'nl_query:hello',
    '{nl_query tags}: x',
    '^hello',
    'hel*lo',
    '(((',
    'hello" OR "1"="1',
    "'; DROP TABLE st_test_cases; --",
    '\u0000',
    'zur\u0000ich',
    '\ud800zurich \udfff',
    '😀 🚀',
  ])('never fails on search text %j', async (q) => {
    const store = new EmbeddedTestCaseStore(temps.open().db);
    await store.upsertTestCases(FILTER_CASES);
    await expect(store.listTestCases({ q })).resolves.toMatchObject({ has_more: false });
    await expect(store.countTestCases({ q, tags: ['smoke'] })).resolves.toBeGreaterThanOrEqual(0);
    expect(await store.countTestCases()).toBe(FILTER_CASES.length);
  });

  it('keeps bodies, tag rows and the text index in step with writes and deletes', async () => {
    const temp = temps.open();
    const store = new EmbeddedTestCaseStore(temp.db);
    await store.upsertTestCases(FILTER_CASES);
    expect(rowCounts(temp)).toEqual({ cases: 6, bodies: 6, tags: 8, fts: 6 });
    await store.upsertTestCases(FILTER_CASES);
    expect(rowCounts(temp)).toEqual({ cases: 6, bodies: 6, tags: 8, fts: 6 });
    for (const testCase of FILTER_CASES) await store.deleteTestCase(testCase.id);
    expect(rowCounts(temp)).toEqual({ cases: 0, bodies: 0, tags: 0, fts: 0 });
  });

  it('writes a batch all or nothing', async () => {
    const store = new EmbeddedTestCaseStore(temps.open().db);
    const broken = { ...sampleTestCase('x'), id: null } as unknown as TestCase;
    await expect(store.upsertTestCases([sampleTestCase('ok-1'), broken, sampleTestCase('ok-2')])).rejects.toThrow(/NOT NULL/);
    expect(await store.countTestCases()).toBe(0);
    expect(await store.getTestCase('ok-1')).toBeUndefined();
  });

  it('drops a _etag passed back from a read before storing the body', async () => {
    const store = new EmbeddedTestCaseStore(temps.open().db);
    const read = await store.createTestCase(sampleTestCase('e'));
    await store.upsertTestCases([read]);
    expect(await store.getTestCases(['e'])).toEqual([sampleTestCase('e')]);
  });

  it('keeps everything across a restart', async () => {
    const temp = temps.open();
    await new EmbeddedTestCaseStore(temp.db).upsertTestCases(FILTER_CASES);
    const again = new EmbeddedTestCaseStore(temps.reopen(temp).db);
    expect(await again.countTestCases({ q: 'zurich', tags: ['smoke'] })).toBe(1);
    expect((await again.listTestCases({ category: 'travel' })).items.map((c) => c.id)).toEqual(['c2', 'c3']);
  });

  it('clamps the page window (limit 1-1000, offset >= 0)', async () => {
    const store = new EmbeddedTestCaseStore(temps.open().db);
    await store.upsertTestCases(FILTER_CASES);
    const pages = [await store.listTestCases({}, { limit: 5_000, offset: -3 }), await store.listTestCases({}, { limit: 0 })];
    expect(pages.map((p) => ({ n: p.items.length, limit: p.limit, offset: p.offset, has_more: p.has_more }))).toEqual([
      { n: 6, limit: 1_000, offset: 0, has_more: false },
      { n: 1, limit: 1, offset: 0, has_more: true },
    ]);
  });
});
