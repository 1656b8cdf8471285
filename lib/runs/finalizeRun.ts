import type { Run, RunStats } from '../domain/index.js';
import { NotFoundError, type Clock, type Stores } from '../ports/index.js';

export type RunOutcome = 'completed' | 'cancelled' | 'timed_out';

export interface FinalizedRun {
  run_id: string;
  status: Run['status'];
  stats: RunStats;
}

/**
 * Closes a run: recounts its statistics from the stored scorecards (the live fold is checked, never trusted
 * blindly), sets the final status and time, and notes model-version changes seen in the results. A run whose
 * deadline passed with every case in is `completed`, not `timed_out`. Idempotent.
 */
export async function finalizeRun(runId: string, outcome: RunOutcome, deps: { stores: Stores; clock: Clock }): Promise<FinalizedRun> {
  const { stores, clock } = deps;
  const run = await stores.runs.getRun(runId);
  if (!run) throw new NotFoundError('run', runId);
  const stats = await stores.runStats.recomputeRunStats(runId, run.total_cases);
  const allIn = stats.completed >= run.total_cases;
  const status: Run['status'] = outcome === 'cancelled' ? 'cancelled' : allIn ? 'completed' : outcome;
  const notes = [...run.notes];
  if (stats.client_versions.length > 1) {
    const note = `model version changed during the run: ${stats.client_versions.join(', ')}`;
    if (!notes.includes(note)) notes.push(note);
  }
  if (status === 'timed_out') notes.push(`deadline ${run.deadline_at} passed with ${stats.completed} of ${run.total_cases} cases scored`);
  const updated = await stores.runs.updateRun(
    runId,
    { status, completed_at: run.completed_at ?? clock.now().toISOString(), notes },
    { from: ['pending', 'running', 'cancelled'] },
  );
  return { run_id: runId, status: updated?.status ?? run.status, stats };
}
