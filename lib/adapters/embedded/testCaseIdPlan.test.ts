import { afterEach, describe, expect, it } from 'vitest';
import type { ScopedCaseFilter } from './testCaseFilterSql.js';
import { matchingRidsSql } from './testCaseFilterSql.js';
import { EmbeddedTestCaseStore } from './testCaseStore.js';
import { TestCaseReader } from './testCaseReader.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

/**
 * A run's id stream reads its organization's cases page by page (keyset on rid). Each page must be an index search
 * that starts at the keyset: a plan that builds a list of the organization's rids (a LIST SUBQUERY) or sorts (a TEMP
 * B-TREE) does the whole organization's work again for every page, so a 400,000-case stream costs O(n^2) (it took
 * ~45 s of a run's start). SQLite's own plan is the evidence, so this fails whatever the machine's speed.
 */
describe('organization-scoped id pages', () => {
  it.each<[string, ScopedCaseFilter]>([
    ['organization only', { organization: 'acme' }],
    ['organization and a tag (a dynamic suite)', { organization: 'acme', tags: ['bench'] }],
    ['organization and all of two tags', { organization: 'acme', tags: ['a', 'b'], tags_mode: 'all' }],
    ['organization and a column', { organization: 'acme', category: 'orders' }],
  ])('%s: an index search from the keyset, no per-page list or sort', (_label, filter) => {
    const { db } = temps.open();
    new EmbeddedTestCaseStore(db);
    const reader = new TestCaseReader(db);
    const rids = matchingRidsSql(reader.plan(filter, true), 100);
    const sql = `SELECT p.rid, c.id FROM (${rids.sql} ORDER BY rid LIMIT ?) AS p CROSS JOIN st_test_cases c ON c.rid = p.rid ORDER BY p.rid`;
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...rids.params, 1000) as Array<{ detail: string }>).map((r) => r.detail);
    expect(plan.join('\n')).not.toMatch(/LIST SUBQUERY|TEMP B-TREE/);
    expect(plan.some((d) => /^SEARCH x .*rid>\?/.test(d))).toBe(true);
  });
});
