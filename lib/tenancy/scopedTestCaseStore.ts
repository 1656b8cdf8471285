import type { TestCase, TestCaseFilter } from '../domain/index.js';
import {
  ConflictError,
  NotFoundError,
  type FindSimilarOptions,
  type Page,
  type PageOptions,
  type SimilarTestCase,
  type TestCaseStore,
  type UpsertManyResult,
  type WithEtag,
} from '../ports/index.js';
import type { Ownership } from './ownership.js';

/**
 * The gold set of one organization. Writes are stamped; an import (`upsertTestCases`) that names an id another
 * organization holds is refused whole (ConflictError, nothing written); reads by id miss other organizations'
 * cases; lists, id streams and counts carry the organization into the store's query.
 */
export class ScopedTestCaseStore implements TestCaseStore {
  constructor(
    private readonly inner: TestCaseStore,
    private readonly scope: Ownership,
  ) {}

  createTestCase(testCase: TestCase): Promise<WithEtag<TestCase>> {
    return this.scope.written(this.inner.createTestCase(this.scope.stamp(testCase)));
  }

  async upsertTestCases(testCases: TestCase[]): Promise<UpsertManyResult> {
    const foreign = (await this.inner.getTestCases(testCases.map((c) => c.id))).find((c) => !this.scope.owns(c));
    if (foreign) throw new ConflictError('test case', foreign.id);
    return this.inner.upsertTestCases(testCases.map((c) => this.scope.stamp(c)));
  }

  async getTestCase(id: string): Promise<WithEtag<TestCase> | undefined> {
    return this.scope.visible(await this.inner.getTestCase(id));
  }

  async getTestCases(ids: readonly string[]): Promise<TestCase[]> {
    return this.scope.visibleOnly(await this.inner.getTestCases(ids));
  }

  async replaceTestCase(testCase: TestCase, options?: { ifMatch?: string }): Promise<WithEtag<TestCase>> {
    if (!(await this.getTestCase(testCase.id))) throw new NotFoundError('test case', testCase.id);
    return this.scope.written(this.inner.replaceTestCase(this.scope.stamp(testCase), options));
  }

  async deleteTestCase(id: string): Promise<void> {
    if (await this.getTestCase(id)) await this.inner.deleteTestCase(id);
  }

  async listTestCases(filter: TestCaseFilter = {}, options?: PageOptions): Promise<Page<WithEtag<TestCase>>> {
    const page = await this.inner.listTestCases({ ...filter, organization: this.scope.organization }, options);
    return { ...page, items: this.scope.visibleOnly(page.items) };
  }

  /**
   * The store's ids for the organization: every adapter filters its id stream on the organization (SQLite and Cosmos
   * DB in the query, the AI Search index on its `organization` field), as counts do. Not re-checked by reading the
   * bodies: that read every case of a 400,000-case suite while planning a run (81 s of a 233 s bench:run).
   */
  listTestCaseIds(filter: TestCaseFilter = {}): AsyncIterable<string> {
    return this.inner.listTestCaseIds({ ...filter, organization: this.scope.organization });
  }

  countTestCases(filter: TestCaseFilter = {}): Promise<number> {
    return this.inner.countTestCases({ ...filter, organization: this.scope.organization });
  }

  /** the store's near-duplicates, keeping this organization's (asks for more, so a full page usually survives) */
  async findSimilarTestCases(text: string, options: FindSimilarOptions = {}): Promise<SimilarTestCase[]> {
    const limit = options.limit ?? 10;
    const found = await this.inner.findSimilarTestCases(text, { ...options, limit: 100 });
    const owned = new Set((await this.inner.getTestCases(found.map((f) => f.id))).filter((c) => this.scope.owns(c)).map((c) => c.id));
    return found.filter((f) => owned.has(f.id)).slice(0, limit);
  }
}
