import type { SuiteVersion, SuiteVersionCase, TestCase } from '../domain/index.js';
import type { Page, PageOptions } from './paging.js';

/** A case as a version is published with it: the body and its content hash (caseContentHash). */
export interface PublishedCase {
  test_case: TestCase;
  content_hash: string;
}

/**
 * Published suite versions: immutable once `publish` returns. A version holds its case ids in order, each with
 * its content hash and its published body (a pinned run evaluates those bodies, whatever happened to the gold
 * set since). `publish` creates the version or throws ConflictError when that (suite, number) exists; a version
 * is visible to the readers only once complete (all its cases stored).
 */
export interface SuiteVersionStore {
  publish(version: SuiteVersion, cases: readonly PublishedCase[]): Promise<SuiteVersion>;
  getVersion(suiteId: string, version: number): Promise<SuiteVersion | undefined>;
  /** the suite's published versions, newest (highest number) first */
  listVersions(suiteId: string): Promise<SuiteVersion[]>;
  /** a page of the version's cases in their published order; NotFoundError for an unknown version */
  listCases(suiteId: string, version: number, options?: PageOptions): Promise<Page<SuiteVersionCase>>;
  /** every case of the version in order (diffs, run planning, comparisons); NotFoundError for an unknown version */
  iterateCases(suiteId: string, version: number): AsyncIterable<SuiteVersionCase>;
  /** the published bodies of `ids` (ids not in the version are left out; order follows `ids`) */
  getCaseBodies(suiteId: string, version: number, ids: readonly string[]): Promise<TestCase[]>;
}
