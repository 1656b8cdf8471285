import type { Run } from '../domain/index.js';
import type { Stores } from '../ports/index.js';
import { caseHashesOf, differentVersions } from '../compare/index.js';

/**
 * When a run and its baseline evaluated different suite versions, the case ids whose content hash is equal in both
 * (only those may be paired: a case whose body changed is another case); undefined when the versions are the same
 * (pair everything, as before).
 */
export async function sameContentCaseIds(run: Run, baseline: Run, stores: Stores): Promise<Set<string> | undefined> {
  if (!differentVersions(run, baseline)) return undefined;
  const [a, b] = [await caseHashesOf(baseline, stores), await caseHashesOf(run, stores)];
  const same = new Set<string>();
  for (const [id, hash] of a) if (b.get(id) === hash) same.add(id);
  return same;
}

/** The outcomes of `cases` whose test case id is in `ids` (all of them when `ids` is undefined). */
export async function* onlyCases<T extends { test_case_id: string }>(
  cases: AsyncIterable<T>,
  ids: Set<string> | undefined,
): AsyncIterable<T> {
  for await (const c of cases) if (!ids || ids.has(c.test_case_id)) yield c;
}
