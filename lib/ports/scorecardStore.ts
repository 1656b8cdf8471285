import type { Scorecard, StageName } from '../domain/index.js';
import type { Page, PageOptions } from './paging.js';

export interface ScorecardFilter {
  passed?: boolean;
  failing_stage?: StageName;
  error_code?: string;
  tag?: string;
  category?: string;
}

/**
 * Scorecards keyed (run_id, test_case_id). `upsertScorecards` is idempotent: writing the same card again
 * changes nothing and is not reported as written, so redelivered messages are harmless. A card with a lower
 * attempt_number than the stored one is ignored; a higher one, or the same attempt with different content,
 * replaces it (the later write wins) and goes on the change feed.
 */
export interface ScorecardStore {
  upsertScorecards(cards: readonly Scorecard[]): Promise<{ written: number; unchanged: number }>;
  getScorecard(runId: string, testCaseId: string): Promise<Scorecard | undefined>;
  listScorecards(runId: string, filter?: ScorecardFilter, options?: PageOptions): Promise<Page<Scorecard>>;
  /** every scorecard of a run, streamed (reports, comparisons) */
  iterateScorecards(runId: string): AsyncIterable<Scorecard>;
  countScorecards(runId: string, filter?: ScorecardFilter): Promise<number>;
  /**
   * Deletes up to `limit` (default 1,000) of a run's scorecards and returns how many it deleted: call until 0
   * (retention, job clean-up). Idempotent and resumable: a crash between calls leaves the rest for the next one.
   * Deletes are not on the change feed, so statistics are not touched.
   */
  deleteScorecards(runId: string, options?: { limit?: number }): Promise<number>;
}
