import { yieldToHost } from './yieldToHost.js';
import type { TestCase } from '../../domain/index.js';
import type { ScopedCaseFilter } from './testCaseFilterSql.js';
import {
  ConflictError,
  type FindSimilarOptions,
  NotFoundError,
  type Page,
  type PageOptions,
  PreconditionFailedError,
  type SimilarTestCase,
  type TestCaseStore,
  type UpsertManyResult,
  type WithEtag,
} from '../../ports/index.js';
import { BackgroundCheckpoint } from './backgroundCheckpoint.js';
import { pageIn, pageWindow } from './pageWindow.js';
import { withoutEtag, type SqliteDatabase } from './sqlite.js';
import { TestCaseReader } from './testCaseReader.js';
import { TestCaseSimilarSearch } from './testCaseSimilarSearch.js';
import { createTestCaseTables } from './testCaseTables.js';
import { TestCaseWriter } from './testCaseWriter.js';

/** How many ids `listTestCaseIds` reads per query. */
export const ID_PAGE_SIZE = 1000;
/** An `upsertTestCases` of at least this many cases is a bulk write: its WAL checkpoint runs in a worker thread. */
export const BULK_WRITE_CASES = 1000;

/**
 * The gold set on SQLite: a narrow indexed row per case, its body, its tag rows and an FTS5 entry, all written in
 * one transaction. Cases are stored as given (validate them before: the API and importers do); a `_etag` passed
 * back from a read is dropped.
 */
export class EmbeddedTestCaseStore implements TestCaseStore {
  private readonly writer: TestCaseWriter;
  private readonly reader: TestCaseReader;
  private readonly similar: TestCaseSimilarSearch;
  /** the checkpoint after a bulk write, off the event loop (backgroundCheckpoint.ts) */
  readonly checkpoint: BackgroundCheckpoint;
  private readonly writeMany: (cases: readonly TestCase[]) => UpsertManyResult;
  private readonly writeChecked: (testCase: TestCase, check: (etag: string | undefined) => void) => string;
  private readonly removeOne: (id: string) => void;

  constructor(db: SqliteDatabase) {
    createTestCaseTables(db);
    this.writer = new TestCaseWriter(db);
    this.reader = new TestCaseReader(db);
    this.similar = new TestCaseSimilarSearch(db);
    this.checkpoint = new BackgroundCheckpoint(db);
    this.writeMany = db.transaction((cases: readonly TestCase[]) => {
      const now = new Date().toISOString();
      const result: UpsertManyResult = { created: 0, updated: 0 };
      for (const testCase of cases) {
        const plain = withoutEtag(testCase);
        if (this.writer.write(plain, JSON.stringify(plain), now).created) result.created++;
        else result.updated++;
      }
      return result;
    });
    this.writeChecked = db.transaction((testCase: TestCase, check: (etag: string | undefined) => void) => {
      check(this.writer.etagOf(testCase.id));
      return this.writer.write(testCase, JSON.stringify(testCase), new Date().toISOString()).etag;
    });
    this.removeOne = db.transaction((id: string) => this.writer.remove(id));
  }

  async createTestCase(testCase: TestCase): Promise<WithEtag<TestCase>> {
    const plain = withoutEtag(testCase);
    const etag = this.writeChecked(plain, (current) => {
      if (current !== undefined) throw new ConflictError('test case', plain.id);
    });
    return { ...plain, _etag: etag };
  }

  async upsertTestCases(testCases: TestCase[]): Promise<UpsertManyResult> {
    return testCases.length >= BULK_WRITE_CASES ? this.checkpoint.bulk(() => this.writeMany(testCases)) : this.writeMany(testCases);
  }

  async getTestCase(id: string): Promise<WithEtag<TestCase> | undefined> {
    return this.reader.get(id);
  }

  async getTestCases(ids: readonly string[]): Promise<TestCase[]> {
    return this.reader.getMany(ids);
  }

  async replaceTestCase(testCase: TestCase, options: { ifMatch?: string } = {}): Promise<WithEtag<TestCase>> {
    const plain = withoutEtag(testCase);
    const etag = this.writeChecked(plain, (current) => {
      if (current === undefined) throw new NotFoundError('test case', plain.id);
      if (options.ifMatch !== undefined && options.ifMatch !== current) throw new PreconditionFailedError('test case', plain.id);
    });
    return { ...plain, _etag: etag };
  }

  async deleteTestCase(id: string): Promise<void> {
    this.removeOne(id);
  }

  async listTestCases(filter?: ScopedCaseFilter, options?: PageOptions): Promise<Page<WithEtag<TestCase>>> {
    const window = pageWindow(options);
    const items = this.reader.page(filter, window.limit, window.offset);
    const total =
      items.length < window.limit && (items.length > 0 || window.offset === 0) ? window.offset + items.length : this.reader.count(filter);
    return pageIn(items, total, window);
  }

  /** Every matching id in store order (first insertion), read by keyset pages of ID_PAGE_SIZE: memory stays flat. */
  async *listTestCaseIds(filter?: ScopedCaseFilter): AsyncIterable<string> {
    const plan = this.reader.plan(filter, true);
    let after = 0;
    for (;;) {
      const rows = this.reader.idsAfter(plan, after, ID_PAGE_SIZE);
      for (const row of rows) yield row.id;
      if (rows.length < ID_PAGE_SIZE) return;
      after = rows[rows.length - 1]!.rid;
      await yieldToHost();
    }
  }

  async countTestCases(filter?: ScopedCaseFilter): Promise<number> {
    return this.reader.count(filter);
  }

  /** FTS5 candidates rescored by character-trigram cosine (testCaseSimilarSearch.ts). */
  async findSimilarTestCases(text: string, options?: FindSimilarOptions): Promise<SimilarTestCase[]> {
    return this.similar.find(text, options);
  }
}
