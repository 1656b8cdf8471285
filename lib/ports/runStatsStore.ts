import type { RunStats, Scorecard } from '../domain/index.js';

/**
 * Live run statistics folded from scorecards. `applyScorecards` is idempotent per (run, case): it keeps each
 * case's last contribution and applies only the difference, so redelivery and replays never double count.
 * Returns the updated stats of every run touched.
 */
export interface RunStatsStore {
  applyScorecards(cards: readonly Scorecard[], totals: ReadonlyMap<string, number>): Promise<RunStats[]>;
  getRunStats(runId: string): Promise<RunStats | undefined>;
  /** recomputes a run's statistics from its stored scorecards (used to check the live fold) */
  recomputeRunStats(runId: string, total: number): Promise<RunStats>;
}
