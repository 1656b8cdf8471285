import type { RunStats } from '../domain/index.js';
import type { CaseOutcome } from '../runs/stats/caseOutcome.js';

/**
 * Live run statistics folded from case outcomes (the change feed of scorecards). `applyOutcomes` is idempotent
 * per (run, case): it keeps each case's last counted outcome and applies only the difference, so redelivery,
 * replays and restarts never double count; an outcome with a lower attempt_number than the counted one is
 * ignored. `totals` gives each run's case count (for progress). Returns the updated stats of every run touched.
 */
export interface RunStatsStore {
  applyOutcomes(outcomes: readonly CaseOutcome[], totals: ReadonlyMap<string, number>): Promise<RunStats[]>;
  getRunStats(runId: string): Promise<RunStats | undefined>;
  /** recomputes a run's statistics from its stored scorecards and replaces the live fold (repair, checks) */
  recomputeRunStats(runId: string, total: number): Promise<RunStats>;
}
