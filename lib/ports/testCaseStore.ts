import type { TestCase, TestCaseFilter } from '../domain/index.js';
import type { Page, PageOptions, WithEtag } from './paging.js';

export interface UpsertManyResult {
  created: number;
  updated: number;
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
  listTestCases(filter?: TestCaseFilter, options?: PageOptions): Promise<Page<WithEtag<TestCase>>>;
  /** every matching id, streamed in a stable order (suite resolution, export) */
  listTestCaseIds(filter?: TestCaseFilter): AsyncIterable<string>;
  countTestCases(filter?: TestCaseFilter): Promise<number>;
}
