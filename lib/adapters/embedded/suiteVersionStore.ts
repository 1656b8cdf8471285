import { yieldToHost } from './yieldToHost.js';
import { SuiteVersionSchema, TestCaseSchema, type SuiteVersion, type SuiteVersionCase, type TestCase } from '../../domain/index.js';
import {
  ConflictError,
  NotFoundError,
  pageOf,
  type Page,
  type PageOptions,
  type PublishedCase,
  type SuiteVersionStore,
} from '../../ports/index.js';
import { chunksOf, placeholders, type SqliteDatabase } from './sqlite.js';

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS st_suite_versions (
  suite_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (suite_id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS st_suite_version_cases (
  suite_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  test_case_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  content_hash TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (suite_id, version, test_case_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS st_suite_version_cases_by_position ON st_suite_version_cases (suite_id, version, position);`;

const PAGE_ROWS = 1_000;

/**
 * Suite versions on SQLite: a version row and one row per case (id, position, content hash, published body),
 * written in one transaction, so a version is either wholly there or not at all; the primary key makes a second
 * publication of the same (suite, number) a ConflictError.
 */
export class EmbeddedSuiteVersionStore implements SuiteVersionStore {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA_SQL);
  }

  async publish(version: SuiteVersion, cases: readonly PublishedCase[]): Promise<SuiteVersion> {
    const valid = SuiteVersionSchema.parse({ ...version, case_count: cases.length });
    const insertVersion = this.db.prepare<[string, number, string]>(
      'INSERT INTO st_suite_versions (suite_id, version, body) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    const insertCase = this.db.prepare<[string, number, string, number, string, string]>(
      'INSERT INTO st_suite_version_cases (suite_id, version, test_case_id, position, content_hash, body) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      if (insertVersion.run(valid.suite_id, valid.version, JSON.stringify(valid)).changes === 0)
        throw new ConflictError('suite version', `${valid.suite_id}@${valid.version}`, 'is already published');
      cases.forEach((c, position) =>
        insertCase.run(valid.suite_id, valid.version, c.test_case.id, position, c.content_hash, JSON.stringify(c.test_case)),
      );
    })();
    return valid;
  }

  async getVersion(suiteId: string, version: number): Promise<SuiteVersion | undefined> {
    const row = this.db
      .prepare<[string, number], { body: string }>('SELECT body FROM st_suite_versions WHERE suite_id = ? AND version = ?')
      .get(suiteId, version);
    return row ? SuiteVersionSchema.parse(JSON.parse(row.body)) : undefined;
  }

  async listVersions(suiteId: string): Promise<SuiteVersion[]> {
    return this.db
      .prepare<[string], { body: string }>('SELECT body FROM st_suite_versions WHERE suite_id = ? ORDER BY version DESC')
      .all(suiteId)
      .map((r) => SuiteVersionSchema.parse(JSON.parse(r.body)));
  }

  async listCases(suiteId: string, version: number, options: PageOptions = {}): Promise<Page<SuiteVersionCase>> {
    const found = await this.requireVersion(suiteId, version);
    const limit = Math.min(1_000, Math.max(1, Math.floor(options.limit ?? 50)));
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    const items = this.casePage(suiteId, version, offset, limit);
    return pageOf(items, found.case_count, { limit, offset });
  }

  async *iterateCases(suiteId: string, version: number): AsyncIterable<SuiteVersionCase> {
    await this.requireVersion(suiteId, version);
    for (let offset = 0; ; offset += PAGE_ROWS) {
      const rows = this.casePage(suiteId, version, offset, PAGE_ROWS);
      yield* rows;
      if (rows.length < PAGE_ROWS) return;
      await yieldToHost();
    }
  }

  async getCaseBodies(suiteId: string, version: number, ids: readonly string[]): Promise<TestCase[]> {
    const found = new Map<string, TestCase>();
    for (const chunk of chunksOf([...new Set(ids)], 500)) {
      const rows = this.db
        .prepare<unknown[], { test_case_id: string; body: string }>(
          `SELECT test_case_id, body FROM st_suite_version_cases WHERE suite_id = ? AND version = ? AND test_case_id IN (${placeholders(chunk.length)})`,
        )
        .all(suiteId, version, ...chunk);
      for (const r of rows) found.set(r.test_case_id, TestCaseSchema.parse(JSON.parse(r.body)));
    }
    return ids.flatMap((id) => {
      const tc = found.get(id);
      return tc ? [tc] : [];
    });
  }

  private casePage(suiteId: string, version: number, offset: number, limit: number): SuiteVersionCase[] {
    return this.db
      .prepare<[string, number, number, number], SuiteVersionCase>(
        `SELECT test_case_id, position, content_hash FROM st_suite_version_cases
         WHERE suite_id = ? AND version = ? ORDER BY position LIMIT ? OFFSET ?`,
      )
      .all(suiteId, version, limit, offset)
      .map((r) => ({ test_case_id: r.test_case_id, position: r.position, content_hash: r.content_hash }));
  }

  private async requireVersion(suiteId: string, version: number): Promise<SuiteVersion> {
    const found = await this.getVersion(suiteId, version);
    if (!found) throw new NotFoundError('suite version', `${suiteId}@${version}`);
    return found;
  }
}
