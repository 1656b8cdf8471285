import type { TestCase } from '../../domain/index.js';
import type { WithEtag } from '../../ports/index.js';
import { chunksOf, type SqliteDatabase } from './sqlite.js';
import { StatementCache } from './statementCache.js';
import { matchingRidsSql, testCaseQuery, type CaseQuery, type ScopedCaseFilter } from './testCaseFilterSql.js';

interface BodyRow {
  etag: string;
  body: string;
}

/** How many ids one `getTestCases` query looks up. */
export const GET_MANY_CHUNK = 500;

/** The read queries of the test-case store (synchronous). Bodies are read only for the rows returned. */
export class TestCaseReader {
  private readonly statements: StatementCache;
  private readonly selectOne;
  private readonly selectMany;
  private readonly countTag;

  constructor(db: SqliteDatabase) {
    this.statements = new StatementCache(db);
    this.selectOne = db.prepare<[string], BodyRow>(
      'SELECT c.etag, b.body FROM st_test_cases c JOIN st_test_case_bodies b ON b.rid = c.rid WHERE c.id = ?',
    );
    this.selectMany = db.prepare<[string], { id: string; body: string }>(
      `SELECT c.id, b.body FROM st_test_cases c JOIN st_test_case_bodies b ON b.rid = c.rid
       WHERE c.id IN (SELECT value FROM json_each(?))`,
    );
    this.countTag = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM st_test_case_tags WHERE tag = ?');
  }

  get(id: string): WithEtag<TestCase> | undefined {
    const row = this.selectOne.get(id);
    return row ? withEtag(row) : undefined;
  }

  /** One query per chunk of ids; missing ids are left out, the order (and repeats) follow `ids`. */
  getMany(ids: readonly string[]): TestCase[] {
    const found = new Map<string, TestCase>();
    for (const chunk of chunksOf(ids, GET_MANY_CHUNK)) {
      for (const row of this.selectMany.all(JSON.stringify(chunk))) found.set(row.id, JSON.parse(row.body) as TestCase);
    }
    const cases: TestCase[] = [];
    for (const id of ids) {
      const testCase = found.get(id);
      if (testCase) cases.push(testCase);
    }
    return cases;
  }

  /** The matching cases in store (rid) order: the page's rids come from the narrow tables, then only their bodies are read. */
  page(filter: ScopedCaseFilter | undefined, limit: number, offset: number): WithEtag<TestCase>[] {
    const rids = matchingRidsSql(this.plan(filter, true));
    const sql = `SELECT c.etag, b.body FROM (${rids.sql} ORDER BY rid LIMIT ? OFFSET ?) AS p
      CROSS JOIN st_test_cases c ON c.rid = p.rid CROSS JOIN st_test_case_bodies b ON b.rid = p.rid ORDER BY p.rid`;
    return this.statements
      .get<BodyRow>(sql)
      .all(...rids.params, limit, offset)
      .map(withEtag);
  }

  count(filter: ScopedCaseFilter | undefined): number {
    const query = this.plan(filter, false);
    const arm = query.arms[0]!;
    if (query.arms.length === 1) {
      return this.statements.get<{ n: number }>(`SELECT count(*) AS n FROM ${arm.from} WHERE ${arm.where}`).get(...arm.params)?.n ?? 0;
    }
    const rids = matchingRidsSql(query);
    return this.statements.get<{ n: number }>(`SELECT count(*) AS n FROM (${rids.sql})`).get(...rids.params)?.n ?? 0;
  }

  /** Up to `limit` cases of an ordered plan after rid `afterRid` (0: from the start), in rid order: their rid and id. */
  idsAfter(plan: CaseQuery, afterRid: number, limit: number): Array<{ rid: number; id: string }> {
    const rids = matchingRidsSql(plan, afterRid);
    const sql = `SELECT p.rid, c.id FROM (${rids.sql} ORDER BY rid LIMIT ?) AS p CROSS JOIN st_test_cases c ON c.rid = p.rid ORDER BY p.rid`;
    return this.statements.get<{ rid: number; id: string }>(sql).all(...rids.params, limit);
  }

  /** The filter's query (`ordered` for pages and id streams); with several tags that must all match, the rarest drives. */
  plan(filter: ScopedCaseFilter | undefined, ordered: boolean): CaseQuery {
    const tags = filter?.tags;
    if (filter?.tags_mode !== 'all' || !tags || tags.length < 2) return testCaseQuery(filter, { ordered });
    const sizes = new Map(tags.map((tag) => [tag, this.countTag.get(tag)?.n ?? 0]));
    return testCaseQuery({ ...filter, tags: [...tags].sort((a, b) => sizes.get(a)! - sizes.get(b)!) }, { ordered });
  }
}

function withEtag(row: BodyRow): WithEtag<TestCase> {
  return { ...(JSON.parse(row.body) as TestCase), _etag: row.etag };
}
