import type { Run } from '../domain/index.js';

/**
 * The run note for a model version change on a target: the client versions seen in the run's results differ
 * from those of its baseline on the same target (RunStats.client_versions). Undefined when either side saw no
 * version, the versions are the same, or the baseline ran another target (a different system, not a change).
 */
export function modelVersionNote(
  run: Pick<Run, 'target_id'>,
  baseline: Pick<Run, 'id' | 'target_id'>,
  baselineVersions: readonly string[],
  currentVersions: readonly string[],
): string | undefined {
  if (baseline.target_id !== run.target_id || baselineVersions.length === 0 || currentVersions.length === 0) return undefined;
  const before = [...new Set(baselineVersions)].sort();
  const after = [...new Set(currentVersions)].sort();
  if (before.join('\u0000') === after.join('\u0000')) return undefined;
  return `model version changed since baseline run ${baseline.id}: ${before.join(', ')} -> ${after.join(', ')}`;
}
