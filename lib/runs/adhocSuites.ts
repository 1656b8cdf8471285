import { createHash } from 'node:crypto';
import {
  caseContentHash,
  parseCaseQuery,
  printCaseQuery,
  TestSuiteSchema,
  versionContentHash,
  type SuiteVersion,
  type TestCase,
  type TestSuite,
} from '../domain/index.js';
import { ConflictError, type Clock, type Stores } from '../ports/index.js';

/** At most this many cases in one batch file (a bigger set belongs in the gold set: `evalp cases import`). */
export const MAX_BATCH_CASES = 50_000;

/**
 * The suite of a batch file (`evalp submit --batch-file`): a static suite marked `adhoc: {kind: 'batch-file'}`,
 * named after the file and the time, whose cases are NOT put into the gold set: they are published as the suite's
 * version 1 (bodies and content hashes), which the run then pins (a pinned run evaluates the published bodies).
 */
export async function createBatchSuite(
  input: { source: string; cases: readonly TestCase[]; id?: string },
  deps: { stores: Pick<Stores, 'suites' | 'suiteVersions'>; clock: Clock },
): Promise<{ suite: TestSuite; version: SuiteVersion }> {
  const now = deps.clock.now().toISOString();
  const ids = input.cases.map((c) => c.id);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new ConflictError('test case', duplicate, `appears twice in ${input.source}`);
  const id =
    input.id ??
    `adhoc-${now.replace(/[-:.TZ]/g, '').slice(0, 14)}-${createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 8)}`;
  const suite = TestSuiteSchema.parse({
    id,
    name: `${input.source} @ ${now}`,
    description: `ad-hoc cases from ${input.source} (not in the gold set)`,
    kind: 'static',
    test_case_ids: ids,
    adhoc: { kind: 'batch-file', source: input.source, created_at: now },
    created_at: now,
    updated_at: now,
  });
  const created = await deps.stores.suites.create(suite);
  const cases = input.cases.map((test_case) => ({ test_case, content_hash: caseContentHash(test_case) }));
  const version = await deps.stores.suiteVersions.publish(
    {
      suite_id: id,
      version: 1,
      author: 'batch-file',
      note: `cases of ${input.source}`,
      created_at: now,
      case_count: cases.length,
      content_hash: versionContentHash(cases.map((c) => ({ test_case_id: c.test_case.id, content_hash: c.content_hash }))),
    },
    cases,
  );
  const { _etag, ...stored } = created;
  void _etag;
  return { suite: stored, version };
}

/**
 * The dynamic suite of a query (`POST /api/v1/runs {query}`): one per canonical query text (id `query-<hash>`),
 * marked `adhoc: {kind: 'query'}`; resolved against the gold set when a run starts, and the run's case list is
 * frozen then (planRun). Throws CaseQueryError for a query that does not parse.
 */
export async function ensureQuerySuite(query: string, deps: { stores: Pick<Stores, 'suites'>; clock: Clock }): Promise<TestSuite> {
  const printed = printCaseQuery(parseCaseQuery(query));
  const id = `query-${createHash('sha256').update(printed).digest('hex').slice(0, 16)}`;
  const existing = await deps.stores.suites.get(id);
  if (existing) {
    const { _etag, ...suite } = existing;
    void _etag;
    return suite;
  }
  const now = deps.clock.now().toISOString();
  const suite = TestSuiteSchema.parse({
    id,
    name: `query: ${printed}`.slice(0, 200),
    kind: 'dynamic',
    query: printed,
    adhoc: { kind: 'query', source: printed, created_at: now },
    created_at: now,
    updated_at: now,
  });
  try {
    await deps.stores.suites.create(suite);
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err; // created meanwhile by another request: the same suite
  }
  return suite;
}
