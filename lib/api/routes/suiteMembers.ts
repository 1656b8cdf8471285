import type { TestSuite } from '../../domain/index.js';
import type { TestCaseStore } from '../../ports/index.js';
import { ApiError, type FieldError } from '../problem.js';

const EXISTS_CHUNK = 1000;
const MAX_NAMED = 50;

/** The ids in first-seen order without repeats (a static suite lists each case once). */
export function uniqueIds(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/** The ids (of `ids`) that name no stored test case, read 1,000 at a time so memory stays flat. */
export async function missingTestCaseIds(store: TestCaseStore, ids: readonly string[]): Promise<Set<string>> {
  const missing = new Set<string>();
  for (let i = 0; i < ids.length; i += EXISTS_CHUNK) {
    const chunk = ids.slice(i, i + EXISTS_CHUNK);
    const found = new Set((await store.getTestCases(chunk)).map((c) => c.id));
    for (const id of chunk) if (!found.has(id)) missing.add(id);
  }
  return missing;
}

/**
 * Throws 422 naming each unknown test case id by its field (`body.test_case_ids.3`; the first 50 as field errors,
 * the count and the first ids in the detail).
 */
export async function requireTestCases(store: TestCaseStore, ids: readonly string[], field: string): Promise<void> {
  const missing = await missingTestCaseIds(store, ids);
  if (missing.size === 0) return;
  const errors: FieldError[] = [];
  ids.forEach((id, index) => {
    if (missing.has(id) && errors.length < MAX_NAMED)
      errors.push({ path: `body.${field}.${index}`, message: `test case "${id}" does not exist` });
  });
  const named = [...missing]
    .slice(0, 10)
    .map((id) => `"${id}"`)
    .join(', ');
  const more = missing.size > 10 ? ` and ${missing.size - 10} more` : '';
  throw new ApiError(422, 'Unprocessable Content', `${missing.size} test case id(s) in ${field} do not exist: ${named}${more}`, errors);
}

/** Only a static suite has a member list; a dynamic one answers 409. */
export function requireStatic(suite: TestSuite): void {
  if (suite.kind !== 'static') {
    throw new ApiError(
      409,
      'Conflict',
      `test suite "${suite.id}" is dynamic: its cases come from its filter; change the filter with PUT /api/v1/test-suites/${suite.id}, or create a static suite`,
    );
  }
}

/** A suite as lists show it: its member count instead of a member list that may hold 400,000 ids. */
export type SuiteSummary = Omit<TestSuite, 'test_case_ids'> & { test_case_count: number | null };

export function suiteSummary(suite: TestSuite): SuiteSummary {
  const { test_case_ids, ...rest } = suite;
  return { ...rest, test_case_count: suite.kind === 'static' ? test_case_ids.length : null };
}
