import type { TestCase, TestCaseFilter } from '../domain/index.js';
import type { OrganizationScope } from './organizationScope.js';
import type { Page, PageOptions, WithEtag } from './paging.js';

export interface UpsertManyResult {
  created: number;
  updated: number;
}

/** One near-duplicate of a search text. */
export interface SimilarTestCase {
  id: string;
  nl_query: string;
  /** similarity in [0, 1]: 1 for the same question (up to case, accents, punctuation and spacing) */
  score: number;
}

export interface FindSimilarOptions {
  /** at most this many (1-100, default 10) */
  limit?: number;
  /** leave out cases scoring below this (0-1, default 0.5) */
  minScore?: number;
}

/** The gold set. Filters: tags (any/all), complexity range, api_version, category, full text (`q`). */
export interface TestCaseStore {
  createTestCase(testCase: TestCase): Promise<WithEtag<TestCase>>;
  /** one transaction per call: all or nothing */
  upsertTestCases(testCases: TestCase[]): Promise<UpsertManyResult>;
  getTestCase(id: string): Promise<WithEtag<TestCase> | undefined>;
  /** ids that do not exist are left out; order follows `ids` */
  getTestCases(ids: readonly string[]): Promise<TestCase[]>;
  replaceTestCase(testCase: TestCase, options?: { ifMatch?: string }): Promise<WithEtag<TestCase>>;
  deleteTestCase(id: string): Promise<void>;
  listTestCases(filter?: TestCaseFilter & OrganizationScope, options?: PageOptions): Promise<Page<WithEtag<TestCase>>>;
  /** every matching id, streamed in a stable order (suite resolution, export) */
  listTestCaseIds(filter?: TestCaseFilter & OrganizationScope): AsyncIterable<string>;
  countTestCases(filter?: TestCaseFilter & OrganizationScope): Promise<number>;
  /**
   * Near-duplicates of `text` among the stored questions (`nl_query`), best first (ties by id), each scoring at
   * least `minScore`. Scores are adapter-defined similarities in [0, 1] (embedded: cosine of character-trigram
   * vectors; Azure: vector search); the same question scores ~1 and ranks above a reworded one, which ranks above
   * an unrelated one.
   */
  findSimilarTestCases(text: string, options?: FindSimilarOptions): Promise<SimilarTestCase[]>;
}
