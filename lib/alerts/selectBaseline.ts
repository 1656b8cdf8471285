import type { Run } from '../domain/index.js';
import type { RunFilter, Stores } from '../ports/index.js';

/** How many recent candidates are examined before giving up (retry-failures runs are skipped). */
const LOOKBACK = 50;

/**
 * The run a run is judged against: its explicit `baseline_run_id` when that run exists (whatever its status),
 * else the newest *completed* run created before it on the same suite and target (of the same client when the
 * run has one; any run otherwise), skipping retry-failures runs (they hold only the failures of another run) and
 * new-case trigger runs (only the cases just added; they have no baseline either).
 * Undefined when there is none: a run with no baseline raises no alerts.
 */
export async function selectBaseline(run: Run, stores: Pick<Stores, 'runs'>): Promise<Run | undefined> {
  if (newCasesOnly(run)) return undefined; // a run of just the newly added cases has nothing to be compared with
  if (run.baseline_run_id) {
    if (run.baseline_run_id === run.id) return undefined;
    return (await stores.runs.getRun(run.baseline_run_id)) ?? undefined;
  }
  const filter: RunFilter = { suite_id: run.suite_id, target_id: run.target_id, status: 'completed', created_before: run.created_at };
  if (run.client_id) filter.client_id = run.client_id;
  const page = await stores.runs.listRuns(filter, { limit: LOOKBACK });
  return page.items.find(
    (candidate) =>
      candidate.id !== run.id && candidate.parent_run_id === null && candidate.triggered_by !== 'retry' && !newCasesOnly(candidate),
  );
}

/** A run a new-case trigger started: it holds only the cases added since the last one. */
function newCasesOnly(run: Pick<Run, 'triggered_by' | 'trigger_metadata'>): boolean {
  return run.triggered_by === 'trigger' && run.trigger_metadata['trigger'] === 'new_cases';
}
