import { caseContentHash, type Run, type Scorecard, type TestCase } from '../domain/index.js';
import type { Stores } from '../ports/index.js';
import { runCaseBodies } from './suiteCases.js';

/** The key of a case body loaded for one run (a batch may hold several runs, pinned to different versions). */
export function runCaseKey(runId: string, testCaseId: string): string {
  return `${runId}\u0000${testCaseId}`;
}

/**
 * The case bodies a batch of messages evaluates, keyed by runCaseKey: a run pinned to a suite version gets the
 * version's published bodies (never the gold set's current one, so an edit after publication cannot join it), a
 * live run the gold set's. One read per (suite, version) group.
 */
export async function loadRunCases(
  entries: ReadonlyArray<{ run: Pick<Run, 'id' | 'suite_id' | 'suite_version'>; test_case_id: string }>,
  stores: Pick<Stores, 'testCases' | 'suiteVersions'>,
): Promise<Map<string, TestCase>> {
  const groups = new Map<string, { run: Pick<Run, 'suite_id' | 'suite_version'>; ids: Set<string>; runs: Set<string> }>();
  for (const { run, test_case_id } of entries) {
    const key = run.suite_version == null ? '\u0000live' : `${run.suite_id}\u0000${run.suite_version}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { run, ids: new Set(), runs: new Set() }));
    group.ids.add(test_case_id);
    group.runs.add(run.id);
  }
  const out = new Map<string, TestCase>();
  for (const group of groups.values()) {
    const bodies = group.ids.size ? await runCaseBodies(group.run, [...group.ids], stores) : [];
    for (const tc of bodies) for (const runId of group.runs) out.set(runCaseKey(runId, tc.id), tc);
  }
  return out;
}

/** A scorecard with the suite version its run pinned (if any) and the content hash of the body it evaluated. */
export function pinScorecard(card: Scorecard, run: Pick<Run, 'suite_version'>, testCase: TestCase): Scorecard {
  return { ...card, ...(run.suite_version != null ? { suite_version: run.suite_version } : {}), case_hash: caseContentHash(testCase) };
}
