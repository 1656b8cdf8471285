import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { ChangeLog } from '../host/index.js';
import { createEmbeddedStores } from '../adapters/embedded/index.js';
import { sampleTestCase } from '../ports/contracts/fixtures.js';
import { scopedStores } from './scopedServices.js';

describe('ScopedTestCaseStore on SQLite', () => {
  it("streams, counts and lists only the organization's case ids (the store filters them; no body is re-read)", async () => {
    const db = new Database(':memory:');
    const stores = createEmbeddedStores(db, new ChangeLog(db));
    const acme = scopedStores(stores, 'acme');
    const home = scopedStores(stores, 'default');
    await acme.testCases.upsertTestCases([sampleTestCase('a-1', { tags: ['x'] }), sampleTestCase('a-2', { tags: ['x'] })]);
    await home.testCases.upsertTestCases([sampleTestCase('d-1', { tags: ['x'] })]);
    const ids = async (store: typeof acme.testCases, filter = {}) => {
      const out: string[] = [];
      for await (const id of store.listTestCaseIds(filter)) out.push(id);
      return out.sort();
    };
    expect(await ids(acme.testCases)).toEqual(['a-1', 'a-2']);
    expect(await ids(home.testCases, { tags: ['x'] })).toEqual(['d-1']);
    expect(await acme.testCases.countTestCases({ tags: ['x'] })).toBe(2);
    expect((await home.testCases.listTestCases({})).items.map((c) => c.id)).toEqual(['d-1']);
    let bodiesRead = 0;
    const counting = { ...stores.testCases, listTestCaseIds: stores.testCases.listTestCaseIds.bind(stores.testCases) };
    counting.getTestCases = async (list: readonly string[]) => {
      bodiesRead += list.length;
      return stores.testCases.getTestCases(list);
    };
    expect(await ids(scopedStores({ ...stores, testCases: counting }, 'acme').testCases)).toEqual(['a-1', 'a-2']);
    expect(bodiesRead).toBe(0);
  });
});
