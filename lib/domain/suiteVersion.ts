import { z } from 'zod';
import { contentHash } from './canonical.js';
import type { TestCase } from './testCase.js';

/**
 * A published, immutable version of a test suite: the exact case ids it had at publication, each with the content
 * hash of its body (sha256 of the canonical JSON, lib/domain/canonical.ts), the body itself (kept in the version:
 * a pinned run evaluates the published body, never the case as edited since), a number (1, 2, ... per suite),
 * the principal who published it, a note and the time.
 */
export const SuiteVersionSchema = z
  .object({
    suite_id: z.string().min(1),
    version: z.number().int().positive(),
    /** the principal (user or API key name) who published it */
    author: z.string().min(1),
    note: z.string().max(2_000).default(''),
    created_at: z.iso.datetime({ offset: true }),
    case_count: z.number().int().nonnegative(),
    /** sha256 of the canonical JSON of [[case id, content hash], ...] in order: equal lists, equal hash */
    content_hash: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type SuiteVersion = z.infer<typeof SuiteVersionSchema>;

/** One case of a version: its id, position and the content hash of its published body. */
export const SuiteVersionCaseSchema = z
  .object({
    test_case_id: z.string().min(1),
    position: z.number().int().nonnegative(),
    content_hash: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type SuiteVersionCase = z.infer<typeof SuiteVersionCaseSchema>;

/**
 * Which cases a run evaluates: a published version's number, `latest` (the newest published version, or the live
 * suite when none is published: the default), or `live` (the suite as it resolves when the run is planned).
 */
export const SuiteVersionRefSchema = z.union([z.number().int().positive(), z.enum(['latest', 'live'])]);
export type SuiteVersionRef = z.infer<typeof SuiteVersionRefSchema>;

/** The difference between two versions of a suite, by case id and content hash. */
export const SuiteVersionDiffSchema = z
  .object({
    suite_id: z.string(),
    from_version: z.number().int().positive(),
    to_version: z.number().int().positive(),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    /** in both, with a different content hash */
    changed: z.array(z.object({ test_case_id: z.string(), from_hash: z.string(), to_hash: z.string() }).strict()),
    unchanged: z.number().int().nonnegative(),
  })
  .strict();
export type SuiteVersionDiff = z.infer<typeof SuiteVersionDiffSchema>;

/** The content hash of a case body: what "the same case" means across versions and runs. */
export function caseContentHash(testCase: TestCase): string {
  return contentHash(testCase);
}

/** The hash of a version's whole list (ids and hashes, in order). */
export function versionContentHash(cases: ReadonlyArray<Pick<SuiteVersionCase, 'test_case_id' | 'content_hash'>>): string {
  return contentHash(cases.map((c) => [c.test_case_id, c.content_hash]));
}

/** Added, removed and changed cases from one version's case list to another's (ids sorted in each list). */
export function diffSuiteVersions(
  from: Pick<SuiteVersion, 'suite_id' | 'version'>,
  fromCases: Iterable<Pick<SuiteVersionCase, 'test_case_id' | 'content_hash'>>,
  to: Pick<SuiteVersion, 'version'>,
  toCases: Iterable<Pick<SuiteVersionCase, 'test_case_id' | 'content_hash'>>,
): SuiteVersionDiff {
  const before = new Map<string, string>();
  for (const c of fromCases) before.set(c.test_case_id, c.content_hash);
  const added: string[] = [];
  const changed: SuiteVersionDiff['changed'] = [];
  let unchanged = 0;
  const seen = new Set<string>();
  for (const c of toCases) {
    seen.add(c.test_case_id);
    const old = before.get(c.test_case_id);
    if (old === undefined) added.push(c.test_case_id);
    else if (old !== c.content_hash) changed.push({ test_case_id: c.test_case_id, from_hash: old, to_hash: c.content_hash });
    else unchanged++;
  }
  const removed = [...before.keys()].filter((id) => !seen.has(id));
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    suite_id: from.suite_id,
    from_version: from.version,
    to_version: to.version,
    added: added.sort(byId),
    removed: removed.sort(byId),
    changed: changed.sort((a, b) => byId(a.test_case_id, b.test_case_id)),
    unchanged,
  };
}
