import { afterEach, describe, expect, it } from 'vitest';
import type { ScopedCaseFilter } from './testCaseFilterSql.js';
import { matchingRidsSql } from './testCaseFilterSql.js';
import { EmbeddedTestCaseStore } from './testCaseStore.js';
import { TestCaseReader } from './testCaseReader.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';
import { sampleTestCase } from '../../ports/contracts/fixtures.js';

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

/** An organization's page filtered on a column is read from that column's index alone (it carries the organization). */
describe('organization-scoped filtered pages', () => {
  it.each<[string, ScopedCaseFilter, string]>([
    ['category', { organization: 'acme', category: 'orders' }, 'st_test_cases_by_category_org'],
    ['api version', { organization: 'acme', api_version: 'v2' }, 'st_test_cases_by_api_version_org'],
    ['category and complexity', { organization: 'acme', category: 'orders', complexity_min: 2 }, 'st_test_cases_by_category_org'],
    ['complexity range', { organization: 'acme', complexity_min: 2, complexity_max: 4 }, 'st_test_cases_by_organization_rid'],
    ['organization only', { organization: 'acme' }, 'st_test_cases_by_organization_rid'],
  ])('%s: a covering index, no visit to the case rows', (_label, filter, index) => {
    const { db } = temps.open();
    new EmbeddedTestCaseStore(db);
    const rids = matchingRidsSql(new TestCaseReader(db).plan(filter, true), 100);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${rids.sql} ORDER BY rid LIMIT 100`).all(...rids.params) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toContain(`USING COVERING INDEX ${index}`);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});

describe('tag rows written before they carried the organization', () => {
  it('get their case organization when the store opens, so scoped tag pages find them', async () => {
    const temp = temps.open();
    const store = new EmbeddedTestCaseStore(temp.db);
    await store.upsertTestCases([
      { ...sampleTestCase('a-1', { tags: ['smoke'] }), organization: 'acme' },
      sampleTestCase('d-1', { tags: ['smoke'] }),
    ]);
    temp.db.exec('ALTER TABLE st_test_case_tags DROP COLUMN organization'); // as a database of before
    const reopened = new EmbeddedTestCaseStore(temp.db);
    const ids = async (organization: string): Promise<string[]> => {
      const out: string[] = [];
      for await (const id of reopened.listTestCaseIds({ tags: ['smoke'], organization })) out.push(id);
      return out;
    };
    expect(await ids('acme')).toEqual(['a-1']);
    expect(await ids('default')).toEqual(['d-1']);
  });
});
