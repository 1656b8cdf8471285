import type { SearchClient, SearchOptions } from '@azure/search-documents';
import type { TestCase, TestCaseFilter } from '../../domain/index.js';
import {
  type Embedder,
  type FindSimilarOptions,
  type OrganizationScope,
  type Page,
  pageOf,
  type PageOptions,
  type SimilarTestCase,
  type TestCaseStore,
  type UpsertManyResult,
  type WithEtag,
} from '../../ports/index.js';
import { roundScore, textSimilarity } from '../shared/index.js';
import { pageWindow } from './cosmosPaging.js';
import { bestSimilar, similarWindow } from './cosmosSimilarScan.js';
import type { CosmosTestCaseStore } from './cosmosTestCaseStore.js';
import { searchKey, toGoldSetDocument, type GoldSetDocument } from './searchGoldSetIndex.js';
import { keysetAfter, odataFilter, searchText } from './searchQuery.js';

/** Index actions per request (AI Search takes up to 1,000 per batch). */
export const SEARCH_BATCH = 1_000;
/** Ids per page when streaming the ids of a `q` search (keyset on case_id, so no $skip limit applies). */
const ID_PAGE = 1_000;
/** Vector-search candidates per near-duplicate query, at least. */
const SIMILAR_CANDIDATES = 50;
const SEARCH_FIELDS: Array<keyof GoldSetDocument> = ['nl_query', 'expected_nl_response', 'tags'];

/**
 * The gold set on Cosmos DB (the system of record) with its AI Search index kept in step: a decorator around the
 * Cosmos store. Every write goes to Cosmos DB first, then the same cases (with their questions' embeddings) are
 * merged into, or deleted from, the index in batches of up to 1,000 actions. Reads with `q` are answered by the
 * index (filters as OData, the case bodies read back from Cosmos DB); reads without `q` go to Cosmos DB; near
 * duplicates are a vector query.
 *
 * Why a decorator rather than a change-feed function: writes to the gold set are few (imports, edits), the API
 * caller learns at once when the index could not be updated (the call fails and is retried: every write is
 * idempotent), and the embedded host needs no extra trigger. The cost: if the index write fails after the
 * Cosmos write, the index is stale for those cases until they are written again or `reindex()` runs.
 */
export class SearchIndexedTestCaseStore implements TestCaseStore {
  constructor(
    readonly inner: CosmosTestCaseStore,
    private readonly search: SearchClient<GoldSetDocument>,
    private readonly embedder: Embedder,
  ) {}

  async createTestCase(testCase: TestCase): Promise<WithEtag<TestCase>> {
    const created = await this.inner.createTestCase(testCase);
    await this.index([testCase]);
    return created;
  }

  async upsertTestCases(testCases: TestCase[]): Promise<UpsertManyResult> {
    const result = await this.inner.upsertTestCases(testCases);
    await this.index(testCases);
    return result;
  }

  async replaceTestCase(testCase: TestCase, options?: { ifMatch?: string }): Promise<WithEtag<TestCase>> {
    const replaced = await this.inner.replaceTestCase(testCase, options);
    await this.index([testCase]);
    return replaced;
  }

  async deleteTestCase(id: string): Promise<void> {
    await this.inner.deleteTestCase(id);
    await this.search.deleteDocuments('key', [searchKey(id)]);
  }

  getTestCase(id: string): Promise<WithEtag<TestCase> | undefined> {
    return this.inner.getTestCase(id);
  }

  getTestCases(ids: readonly string[]): Promise<TestCase[]> {
    return this.inner.getTestCases(ids);
  }

  async listTestCases(filter: TestCaseFilter & OrganizationScope = {}, options: PageOptions = {}): Promise<Page<WithEtag<TestCase>>> {
    if (filter.q === undefined) return this.inner.listTestCases(filter, options);
    const window = pageWindow(options);
    const text = searchText(filter.q);
    if (text === undefined) return pageOf([], 0, window);
    const response = await this.search.search(text, {
      ...this.textOptions(filter),
      includeTotalCount: true,
      skip: window.offset,
      top: window.limit,
      orderBy: ['case_id asc'],
      select: ['case_id'],
    });
    const ids: string[] = [];
    for await (const result of response.results) ids.push(result.document.case_id);
    return pageOf(await this.inner.readTestCases(ids), response.count ?? ids.length, window);
  }

  async *listTestCaseIds(filter: TestCaseFilter & OrganizationScope = {}): AsyncIterable<string> {
    if (filter.q === undefined) {
      yield* this.inner.listTestCaseIds(filter);
      return;
    }
    const text = searchText(filter.q);
    if (text === undefined) return;
    let after: string | undefined;
    for (;;) {
      const response = await this.search.search(text, {
        ...this.textOptions(filter, after === undefined ? [] : [keysetAfter(after)]),
        top: ID_PAGE,
        orderBy: ['case_id asc'],
        select: ['case_id'],
      });
      const ids: string[] = [];
      for await (const result of response.results) ids.push(result.document.case_id);
      yield* ids;
      if (ids.length < ID_PAGE) return;
      after = ids[ids.length - 1];
    }
  }

  async countTestCases(filter: TestCaseFilter & OrganizationScope = {}): Promise<number> {
    if (filter.q === undefined) return this.inner.countTestCases(filter);
    const text = searchText(filter.q);
    if (text === undefined) return 0;
    const response = await this.search.search(text, { ...this.textOptions(filter), includeTotalCount: true, top: 0 });
    return response.count ?? 0;
  }

  /**
   * Near-duplicates: the question's embedding against the index (HNSW, cosine), then each candidate scored as the
   * larger of the embedding cosine (catches paraphrases) and the embedded store's character-trigram cosine (the
   * same question up to case and punctuation scores 1 on every backend).
   */
  async findSimilarTestCases(text: string, options: FindSimilarOptions = {}): Promise<SimilarTestCase[]> {
    const { limit, minScore } = similarWindow(options);
    if (!/[\p{L}\p{N}]/u.test(text)) return [];
    const [vector] = await this.embedder.embed([text]);
    const k = Math.max(SIMILAR_CANDIDATES, limit * 5);
    const response = await this.search.search('*', {
      top: k,
      select: ['case_id', 'nl_query'],
      vectorSearchOptions: { queries: [{ kind: 'vector', vector: vector!, fields: ['embedding'], kNearestNeighborsCount: k }] },
    });
    const scored: SimilarTestCase[] = [];
    for await (const result of response.results) {
      // for the cosine metric AI Search scores 1 / (1 + (1 - cosine))
      const cosine = result.score > 0 ? Math.min(1, Math.max(0, 2 - 1 / result.score)) : 0;
      const score = Math.max(roundScore(cosine), textSimilarity(text, result.document.nl_query));
      if (score >= minScore) scored.push({ id: result.document.case_id, nl_query: result.document.nl_query, score });
    }
    return bestSimilar(scored, limit);
  }

  /** Rebuilds the index from Cosmos DB (repair after a failed index write): every case, in batches. */
  async reindex(): Promise<number> {
    let batch: string[] = [];
    let indexed = 0;
    const flush = async () => {
      const cases = await this.inner.getTestCases(batch);
      await this.index(cases);
      indexed += cases.length;
      batch = [];
    };
    for await (const id of this.inner.listTestCaseIds()) {
      batch.push(id);
      if (batch.length >= SEARCH_BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    return indexed;
  }

  /** Embeds the questions and merges the cases into the index, SEARCH_BATCH per request. */
  private async index(testCases: readonly TestCase[]): Promise<void> {
    for (let i = 0; i < testCases.length; i += SEARCH_BATCH) {
      const chunk = testCases.slice(i, i + SEARCH_BATCH);
      const vectors = await this.embedder.embed(chunk.map((testCase) => testCase.nl_query));
      const result = await this.search.mergeOrUploadDocuments(chunk.map((testCase, j) => toGoldSetDocument(testCase, vectors[j]!)));
      const failed = result.results.filter((r) => !r.succeeded);
      if (failed.length > 0)
        throw new Error(
          `AI Search refused ${failed.length} of ${chunk.length} documents (first: ${failed[0]!.key}: ${failed[0]!.errorMessage ?? failed[0]!.statusCode})`,
        );
    }
  }

  private textOptions(filter: TestCaseFilter & OrganizationScope, extra: string[] = []): SearchOptions<GoldSetDocument> {
    const odata = odataFilter(filter, extra);
    return { searchMode: 'all', searchFields: SEARCH_FIELDS, ...(odata ? { filter: odata } : {}) };
  }
}
