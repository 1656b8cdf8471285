import { caseIdOfKey, type PairComparison, type Run } from '../domain/index.js';
import type { Stores } from '../ports/index.js';
import type { RunCases } from './runCases.js';

type VersionPairing = NonNullable<PairComparison['suite_versions']>;

const versionOf = (run: Pick<Run, 'suite_version'>): number | null => run.suite_version ?? null;

/** Whether two runs evaluated different suite versions (a live run and a pinned one differ too). */
export function differentVersions(a: Pick<Run, 'suite_version'>, b: Pick<Run, 'suite_version'>): boolean {
  return versionOf(a) !== versionOf(b);
}

/**
 * The content hash of every case a run evaluated: a pinned run's from its version (the published bodies it
 * evaluated), a live run's from its scorecards' `case_hash` (the body the worker loaded; older scorecards have none).
 */
export async function caseHashesOf(
  run: Run,
  stores: Pick<Stores, 'scorecards'> & Partial<Pick<Stores, 'suiteVersions'>>,
): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const version = versionOf(run);
  if (version !== null && stores.suiteVersions) {
    for await (const c of stores.suiteVersions.iterateCases(run.suite_id, version)) hashes.set(c.test_case_id, c.content_hash);
    return hashes;
  }
  for await (const card of stores.scorecards.iterateScorecards(run.id)) if (card.case_hash) hashes.set(card.test_case_id, card.case_hash);
  return hashes;
}

/**
 * Unpairs the candidate's cases whose content hash differs from the baseline's (`candidate.pair[i] = -1`), so a
 * comparison across suite versions pairs only cases that are the same case; returns the pair's version note.
 */
export function pairOnEqualHashes(
  runs: { baseline: Run; candidate: Run },
  baseline: RunCases,
  candidate: RunCases,
  hashes: { baseline: Map<string, string>; candidate: Map<string, string> },
): VersionPairing {
  let excluded = 0;
  for (let i = 0; i < candidate.size; i++) {
    const j = candidate.pair[i] as number;
    if (j < 0) continue;
    const id = caseIdOfKey(baseline.ids[j] as string);
    const a = hashes.baseline.get(id);
    if (a === undefined || a !== hashes.candidate.get(id)) {
      candidate.pair[i] = -1;
      excluded++;
    }
  }
  const name = (v: number | null) => (v === null ? 'the live suite' : `version ${v}`);
  const [va, vb] = [versionOf(runs.baseline), versionOf(runs.candidate)];
  return {
    baseline_version: va,
    candidate_version: vb,
    excluded_changed: excluded,
    warning: `the runs evaluated different suite versions (${name(va)} and ${name(vb)}): only cases with the same content hash are paired; ${excluded} case(s) in both whose body differs are left out of the paired figures`,
  };
}
