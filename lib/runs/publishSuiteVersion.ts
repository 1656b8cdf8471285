import {
  caseContentHash,
  diffSuiteVersions,
  versionContentHash,
  type SuiteVersion,
  type SuiteVersionCase,
  type SuiteVersionDiff,
} from '../domain/index.js';
import { ConflictError, NotFoundError, type Clock, type Stores } from '../ports/index.js';
import { liveSuiteCaseIds, runCaseBodies } from './suiteCases.js';

const PUBLISH_ATTEMPTS = 5;

/**
 * Publishes a suite as its next version: the case ids it resolves to now (static list or dynamic filter), each
 * with its body and content hash. Numbers are 1, 2, ... per suite; two publications at once both succeed with
 * consecutive numbers (the store refuses a taken number; the next is tried).
 */
export async function publishSuiteVersion(
  suiteId: string,
  input: { author: string; note?: string },
  deps: { stores: Stores; clock: Clock },
): Promise<SuiteVersion> {
  const { stores, clock } = deps;
  const suite = await stores.suites.get(suiteId);
  if (!suite) throw new NotFoundError('test suite', suiteId);
  const ids = await liveSuiteCaseIds(suite, stores);
  const bodies = await runCaseBodies({ suite_id: suiteId, suite_version: null }, ids, stores);
  const cases = bodies.map((test_case) => ({ test_case, content_hash: caseContentHash(test_case) }));
  let next = ((await stores.suiteVersions.listVersions(suiteId))[0]?.version ?? 0) + 1;
  for (let attempt = 1; ; attempt++, next++) {
    const version: SuiteVersion = {
      suite_id: suiteId,
      version: next,
      author: input.author,
      note: input.note ?? '',
      created_at: clock.now().toISOString(),
      case_count: cases.length,
      content_hash: versionContentHash(cases.map((c) => ({ test_case_id: c.test_case.id, content_hash: c.content_hash }))),
    };
    try {
      return await stores.suiteVersions.publish(version, cases);
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= PUBLISH_ATTEMPTS) throw error;
    }
  }
}

/** Added, removed and changed cases between two published versions of a suite (NotFoundError for either missing). */
export async function diffPublishedVersions(
  suiteId: string,
  from: number,
  to: number,
  stores: Pick<Stores, 'suiteVersions'>,
): Promise<SuiteVersionDiff> {
  const read = async (v: number): Promise<SuiteVersionCase[]> => {
    const out: SuiteVersionCase[] = [];
    for await (const c of stores.suiteVersions.iterateCases(suiteId, v)) out.push(c);
    return out;
  };
  return diffSuiteVersions({ suite_id: suiteId, version: from }, await read(from), { version: to }, await read(to));
}
