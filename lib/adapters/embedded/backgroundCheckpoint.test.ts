import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestCase } from '../../domain/index.js';
import { sampleTestCase } from '../../ports/contracts/fixtures.js';
import { HOST_DATABASE_FILE } from '../../host/database.js';
import { BackgroundCheckpoint, WAL_SIZE_LIMIT_BYTES } from './backgroundCheckpoint.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';
import { BULK_WRITE_CASES, EmbeddedTestCaseStore } from './testCaseStore.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

const WORDS = ['weather', 'forecast', 'invoice', 'refund', 'order', 'flight', 'hotel', 'berlin', 'zürich', 'tokyo', 'price', 'stock'];
/** Generated cases with varied words, tags and filter columns (deterministic). */
function generatedCases(count: number, prefix = 'bulk-'): TestCase[] {
  return Array.from({ length: count }, (_, i) => ({
    ...sampleTestCase(`${prefix}${i}`, {
      nl_query: `generated ${WORDS[i % 12]} ${WORDS[(i * 7) % 12]} question ${i}`,
      expected_nl_response: `generated answer about ${WORDS[(i * 5) % 12]}`,
      complexity: (i % 5) + 1,
      tags: [`tag-${i % 7}`, ...(i % 3 === 0 ? ['smoke'] : [])],
      category: `category-${i % 4}`,
      api_version: `v${(i % 3) + 1}`,
    }),
    expected_tool_calls: [{ tool_name: `tool_${i % 5}`, arguments: { n: i } }],
  }));
}

const autocheckpoint = (db: Database.Database): number => Number(db.pragma('wal_autocheckpoint', { simple: true }));

describe('BackgroundCheckpoint', () => {
  it('writes a bulk import without the automatic checkpoint, checkpoints it in the worker, then restores the setting', async () => {
    const temp = temps.open();
    const store = new EmbeddedTestCaseStore(temp.db);
    expect(autocheckpoint(temp.db)).toBe(1000);
    let during: number | undefined;
    const result = store.checkpoint.bulk(() => {
      during = autocheckpoint(temp.db);
      return 'written';
    });
    expect(result).toBe('written');
    expect(during).toBe(0);
    await store.upsertTestCases(generatedCases(BULK_WRITE_CASES));
    const report = await store.checkpoint.settled();
    expect(report?.ok).toBe(true);
    expect(report?.log).toBeGreaterThan(0);
    expect(report?.checkpointed).toBe(report?.log); // every frame of the WAL is in the database file
    expect(autocheckpoint(temp.db)).toBe(1000);
    // the next write restarts the WAL from its start and cuts the file to the limit
    await store.upsertTestCases(generatedCases(1, 'small-'));
    expect(statSync(join(temp.dir, `${HOST_DATABASE_FILE}-wal`)).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    expect(temp.db.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES);
    // another connection (as after a restart) reads every case
    const reader = new Database(join(temp.dir, HOST_DATABASE_FILE), { readonly: true });
    try {
      expect(reader.prepare('SELECT count(*) AS n FROM st_test_cases').get()).toEqual({ n: BULK_WRITE_CASES + 1 });
    } finally {
      reader.close();
    }
  });

  it('leaves smaller writes and databases without a WAL file to SQLite', async () => {
    const temp = temps.open();
    const store = new EmbeddedTestCaseStore(temp.db);
    await store.upsertTestCases(generatedCases(BULK_WRITE_CASES - 1));
    expect(await store.checkpoint.settled()).toBeUndefined();
    const memory = new Database(':memory:');
    try {
      let during: number | undefined;
      new BackgroundCheckpoint(memory).bulk(() => (during = autocheckpoint(memory)));
      expect(during).toBe(autocheckpoint(memory));
    } finally {
      memory.close();
    }
  });

  it('stores the same rows, tags and full-text matches as the same cases written one by one', async () => {
    const cases = generatedCases(BULK_WRITE_CASES + 200);
    const bulk = new EmbeddedTestCaseStore(temps.open().db);
    const one = new EmbeddedTestCaseStore(temps.open().db);
    await bulk.upsertTestCases(cases);
    await bulk.upsertTestCases(cases.slice(0, BULK_WRITE_CASES).map((c) => ({ ...c, nl_query: `${c.nl_query} again` }))); // updates
    for (const c of cases) await one.createTestCase(c);
    for (const c of cases.slice(0, BULK_WRITE_CASES)) await one.replaceTestCase({ ...c, nl_query: `${c.nl_query} again` });
    await bulk.checkpoint.settled();
    const filters = [
      {},
      { q: 'zürich' },
      { q: 'zurich hotel' },
      { q: 'again forec' },
      { q: 'question 11' },
      { tags: ['smoke'] },
      { tags: ['tag-3', 'smoke'], tags_mode: 'all' as const },
      { category: 'category-2', q: 'invoice' },
      { complexity_min: 2, complexity_max: 3, api_version: 'v2' },
    ];
    for (const filter of filters) {
      const ids = async (store: EmbeddedTestCaseStore): Promise<string[]> => {
        const all: string[] = [];
        for await (const id of store.listTestCaseIds(filter)) all.push(id);
        return all;
      };
      const expected = await ids(one);
      expect(await ids(bulk), JSON.stringify(filter)).toEqual(expected);
      expect(await bulk.countTestCases(filter)).toBe(expected.length);
    }
    expect(await bulk.countTestCases({ q: 'again' })).toBe(BULK_WRITE_CASES);
    const strip = (c: TestCase & { _etag?: string }): TestCase => {
      const { _etag: _e, ...rest } = c;
      return { ...rest, metadata: { ...rest.metadata, updated_at: undefined } };
    };
    const [a, b] = [await bulk.getTestCases(cases.map((c) => c.id)), await one.getTestCases(cases.map((c) => c.id))];
    expect(a.map(strip)).toEqual(b.map(strip));
    expect((await bulk.findSimilarTestCases(cases[42]!.nl_query, { limit: 3 })).map((s) => s.id)).toEqual(
      (await one.findSimilarTestCases(cases[42]!.nl_query, { limit: 3 })).map((s) => s.id),
    );
  });
});
