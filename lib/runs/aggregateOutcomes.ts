import { type CaseOutcome, CaseOutcomeSchema, type RunStats } from '../domain/index.js';
import type { Stores } from '../ports/index.js';

export interface AggregationResult {
  stats: RunStats[];
  /** runs whose every case is now in: the caller raises RunCompleted for each (idempotent) */
  completed_run_ids: string[];
  /** feed documents that are not case outcomes (ignored) */
  ignored: number;
}

/**
 * The change-feed handler's logic: folds a batch of scorecard outcomes into live run statistics (idempotent per
 * run and case, so redelivery never double counts) and reports which runs just became complete.
 */
export async function aggregateOutcomes(documents: readonly unknown[], stores: Stores): Promise<AggregationResult> {
  const outcomes: CaseOutcome[] = [];
  let ignored = 0;
  for (const doc of documents) {
    const parsed = CaseOutcomeSchema.safeParse(doc);
    if (parsed.success) outcomes.push(parsed.data);
    else ignored++;
  }
  if (outcomes.length === 0) return { stats: [], completed_run_ids: [], ignored };
  const totals = new Map<string, number>();
  const running = new Set<string>();
  for (const runId of new Set(outcomes.map((o) => o.run_id))) {
    const run = await stores.runs.getRun(runId);
    if (!run) continue;
    totals.set(runId, run.total_cases);
    if (run.status === 'running' || run.status === 'stalled') running.add(runId);
  }
  const known = outcomes.filter((o) => totals.has(o.run_id));
  ignored += outcomes.length - known.length;
  const stats = await stores.runStats.applyOutcomes(known, totals);
  const completed_run_ids = stats.filter((s) => running.has(s.run_id) && s.total > 0 && s.completed >= s.total).map((s) => s.run_id);
  return { stats, completed_run_ids, ignored };
}
