import { BulkOperationType, type Container, type JSONObject } from '@azure/cosmos';
import type { TestCase, TestCaseFilter } from '../../domain/index.js';
import {
  type FindSimilarOptions,
  NotFoundError,
  type Page,
  pageOf,
  type PageOptions,
  type SimilarTestCase,
  type TestCaseStore,
  type UpsertManyResult,
  type WithEtag,
} from '../../ports/index.js';
import { assertBulk, bulkStatus, countWhere, executeBulk, queryAll, queryByIds, queryPages } from './cosmosBulk.js';
import { readOrUndefined, toStoreError } from './cosmosErrors.js';
import { toCosmosId } from './cosmosIds.js';
import { pageWindow, queryWindow } from './cosmosPaging.js';
import { searchTextOf } from './cosmosSearchText.js';
import { findSimilarByScan } from './cosmosSimilarScan.js';
import { andWhere, testCaseWhere } from './cosmosTestCaseQuery.js';

/** A case as stored in the `testcases` container (partition key /id): filter fields beside the body. */
export interface TestCaseDocument {
  id: string;
  case_id: string;
  category: string | null;
  api_version: string | null;
  complexity: number;
  tags: string[];
  /** folded words of question, expected answer and tags (cosmosSearchText.ts) */
  search: string;
  body: TestCase;
  _etag?: string;
}

/** How many ids `listTestCaseIds` reads per query (keyset pages on case_id). */
export const ID_PAGE_SIZE = 1_000;

const ENTITY = 'test case';

export function toTestCaseDocument(testCase: TestCase): TestCaseDocument {
  const { _etag, ...body } = testCase as TestCase & { _etag?: string };
  const metadata = body.metadata;
  return {
    id: toCosmosId(body.id),
    case_id: body.id,
    category: metadata?.category ?? null,
    api_version: metadata?.api_version ?? null,
    complexity: metadata?.complexity_level ?? 1,
    tags: metadata?.tags ?? [],
    search: searchTextOf([body.nl_query, body.expected_nl_response, ...(metadata?.tags ?? [])]),
    body,
  };
}

const withEtag = (doc: TestCaseDocument): WithEtag<TestCase> => ({ ...doc.body, _etag: doc._etag ?? '' });

/**
 * The gold set on Cosmos DB. Cases are stored as given (the API and importers validate them). Lists, counts and
 * id streams are ordered by case id; `q` is answered with CONTAINS over the folded `search` field (a scan: wrap
 * the store with SearchIndexedTestCaseStore when AI Search is configured). `upsertTestCases` writes with
 * `executeBulkOperations`: not atomic across partitions (Cosmos DB has no cross-partition transaction), but
 * idempotent, so a failed call is retried whole.
 */
export class CosmosTestCaseStore implements TestCaseStore {
  constructor(readonly container: Container) {}

  async createTestCase(testCase: TestCase): Promise<WithEtag<TestCase>> {
    const doc = toTestCaseDocument(testCase);
    try {
      return withEtag((await this.container.items.create<TestCaseDocument>(doc)).resource!);
    } catch (error) {
      throw toStoreError(error, ENTITY, doc.case_id);
    }
  }

  async upsertTestCases(testCases: TestCase[]): Promise<UpsertManyResult> {
    const docs = testCases.map(toTestCaseDocument);
    const results = await executeBulk(
      this.container,
      docs.map((doc) => ({ operationType: BulkOperationType.Upsert, partitionKey: doc.id, resourceBody: doc as unknown as JSONObject })),
    );
    assertBulk(results, (status) => status === 200 || status === 201);
    const created = results.filter((result) => bulkStatus(result) === 201).length;
    return { created, updated: results.length - created };
  }

  async getTestCase(id: string): Promise<WithEtag<TestCase> | undefined> {
    const key = toCosmosId(id);
    const doc = await readOrUndefined(this.container.item(key, key).read<TestCaseDocument>());
    return doc && withEtag(doc);
  }

  async getTestCases(ids: readonly string[]): Promise<TestCase[]> {
    return (await this.readTestCases(ids)).map(({ _etag, ...testCase }) => testCase as TestCase);
  }

  /** `getTestCases` with each case's ETag (id queries of 250 in parallel; order follows `ids`, missing ones left out). */
  async readTestCases(ids: readonly string[]): Promise<WithEtag<TestCase>[]> {
    const found = await queryByIds<TestCaseDocument>(this.container, ids.map(toCosmosId));
    return ids.flatMap((id) => {
      const doc = found.get(toCosmosId(id));
      return doc ? [withEtag(doc)] : [];
    });
  }

  async replaceTestCase(testCase: TestCase, options: { ifMatch?: string } = {}): Promise<WithEtag<TestCase>> {
    const doc = toTestCaseDocument(testCase);
    try {
      const { resource } = await this.container
        .item(doc.id, doc.id)
        .replace<TestCaseDocument>(doc, options.ifMatch ? { accessCondition: { type: 'IfMatch', condition: options.ifMatch } } : {});
      if (!resource) throw new NotFoundError(ENTITY, doc.case_id);
      return withEtag(resource);
    } catch (error) {
      throw toStoreError(error, ENTITY, doc.case_id);
    }
  }

  async deleteTestCase(id: string): Promise<void> {
    const key = toCosmosId(id);
    try {
      await this.container.item(key, key).delete();
    } catch (error) {
      if (!(toStoreError(error, ENTITY, id) instanceof NotFoundError)) throw error;
    }
  }

  async listTestCases(filter: TestCaseFilter = {}, options: PageOptions = {}): Promise<Page<WithEtag<TestCase>>> {
    const window = pageWindow(options);
    const clause = testCaseWhere(filter);
    if (!clause) return pageOf([], 0, window);
    const { docs, total } = await queryWindow<TestCaseDocument>(this.container, { ...clause, orderBy: 'c.case_id' }, window);
    return pageOf(docs.map(withEtag), total, window);
  }

  async *listTestCaseIds(filter: TestCaseFilter = {}): AsyncIterable<string> {
    const clause = testCaseWhere(filter);
    if (!clause) return;
    let after: string | undefined;
    for (;;) {
      const where = after === undefined ? clause.where : andWhere(clause, 'c.case_id > @after');
      const parameters = [
        ...clause.parameters,
        { name: '@top', value: ID_PAGE_SIZE },
        ...(after === undefined ? [] : [{ name: '@after', value: after }]),
      ];
      const ids = await queryAll<string>(this.container, {
        query: `SELECT TOP @top VALUE c.case_id FROM c${where} ORDER BY c.case_id`,
        parameters,
      });
      yield* ids;
      if (ids.length < ID_PAGE_SIZE) return;
      after = ids[ids.length - 1];
    }
  }

  async countTestCases(filter: TestCaseFilter = {}): Promise<number> {
    const clause = testCaseWhere(filter);
    return clause ? countWhere(this.container, clause.where, clause.parameters) : 0;
  }

  async findSimilarTestCases(text: string, options: FindSimilarOptions = {}): Promise<SimilarTestCase[]> {
    return findSimilarByScan(text, options, (where) =>
      queryPages<{ case_id: string; nl_query: string }>(
        this.container,
        { query: `SELECT c.case_id, c.body.nl_query FROM c${where.where}`, parameters: where.parameters },
        { maxItemCount: ID_PAGE_SIZE },
      ),
    );
  }
}
