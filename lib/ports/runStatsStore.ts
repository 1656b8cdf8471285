import type { CaseOutcome, RunStats } from '../domain/index.js';

export interface IterateOutcomesOptions {
  /** 'scorecards' (default): the order `iterateScorecards` gives, where the store can; 'any': whatever is cheapest */
  order?: 'scorecards' | 'any';
}

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
  /**
   * Streams the outcome counted for each case of a run (the one its statistics hold: last attempt counted),
   * nothing for an unknown run. As current as the statistics (the change feed), which may trail the
   * scorecards by a batch. Order: with `order: 'scorecards'` (default) the embedded store yields the
   * scorecards' order (first write), so sums and resampling match a scorecard read; `order: 'any'` lets it read
   * its own key order (cheaper: no visit of the card rows), for readers that index the cases by id. Other
   * stores leave the order unspecified. Compact rows: cheaper than `iterateScorecards` (no diffs or calls).
   */
  iterateOutcomes(runId: string, options?: IterateOutcomesOptions): AsyncIterable<CaseOutcome>;
  /**
   * Deletes up to `limit` (default 1,000) of the per-case outcomes counted for a run and returns how many: call until
   * 0. The run's statistics (`getRunStats`) are kept as they are (retention keeps aggregates); `iterateOutcomes` then
   * yields nothing. Idempotent; never call `recomputeRunStats` for such a run (no cards are left to count).
   */
  deleteOutcomes(runId: string, options?: { limit?: number }): Promise<number>;
  /** Deletes a run's statistics and every counted outcome (a deleted run: /api/evaluate job clean-up). Idempotent. */
  deleteRunStats(runId: string): Promise<void>;
}
