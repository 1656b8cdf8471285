import { matchesCaseQuery, organizationOf, parseCaseQuery, type Run, type TestCase, type TestSuite } from '../domain/index.js';
import { Ownership, ScopedTestCaseStore } from '../tenancy/index.js';
import { NotFoundError, type Stores } from '../ports/index.js';

const CHUNK = 500;

/**
 * The live suite's case ids now: a static suite's listed ids that exist (in order, once each), or a dynamic
 * suite's filter and query resolved against the gold set (stable order), both within the suite's organization.
 */
export async function liveSuiteCaseIds(suite: TestSuite, stores: Pick<Stores, 'testCases'>): Promise<string[]> {
  // the suite's own organization's gold set, whoever asks (run planning runs unscoped in the workers)
  const testCases = new ScopedTestCaseStore(stores.testCases, new Ownership(organizationOf(suite)));
  if (suite.kind === 'static') {
    const unique = [...new Set(suite.test_case_ids)];
    const existing: string[] = [];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const found = await testCases.getTestCases(unique.slice(i, i + CHUNK));
      for (const tc of found) existing.push(tc.id);
    }
    return existing;
  }
  const ids: string[] = [];
  for await (const id of testCases.listTestCaseIds(suite.filter)) ids.push(id);
  if (!suite.query) return ids;
  // a query suite: the filter (if any) narrows in the store, the query decides on each case's body
  const query = parseCaseQuery(suite.query);
  const matching = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    for (const tc of await testCases.getTestCases(ids.slice(i, i + CHUNK))) if (matchesCaseQuery(query, tc)) matching.add(tc.id);
  }
  return ids.filter((id) => matching.has(id));
}

/** The case ids a run on a suite evaluates before sampling: its pinned version's, or the live suite's. */
export async function suiteCaseIdsOf(run: Pick<Run, 'suite_id' | 'suite_version'>, stores: Stores): Promise<string[]> {
  if (run.suite_version != null) {
    const ids: string[] = [];
    for await (const c of stores.suiteVersions.iterateCases(run.suite_id, run.suite_version)) ids.push(c.test_case_id);
    return ids;
  }
  const suite = await stores.suites.get(run.suite_id);
  if (!suite) throw new NotFoundError('test suite', run.suite_id);
  return liveSuiteCaseIds(suite, stores);
}

/**
 * The bodies a run evaluates for `ids`: a pinned run's are the version's published bodies (a case edited since
 * publication is evaluated as published; one not in the version is left out), a live run's the gold set's now.
 */
export async function runCaseBodies(
  run: Pick<Run, 'suite_id' | 'suite_version'>,
  ids: readonly string[],
  stores: Pick<Stores, 'testCases' | 'suiteVersions'>,
): Promise<TestCase[]> {
  const out: TestCase[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    out.push(
      ...(run.suite_version != null
        ? await stores.suiteVersions.getCaseBodies(run.suite_id, run.suite_version, chunk)
        : await stores.testCases.getTestCases(chunk)),
    );
  }
  return out;
}
