import type { CaseOutcome, Scorecard } from '../domain/index.js';
import type { IterateOutcomesOptions, RunStatsStore, ScorecardStore } from '../ports/index.js';

/** What a streaming reader of a run's cases needs: both a CaseOutcome and a whole Scorecard are one. */
export type RunCaseOutcome = CaseOutcome | Scorecard;

/**
 * A run's per-case outcomes from the cheapest source that has them: the statistics store's counted outcomes
 * (`iterateOutcomes`, compact rows) when it keeps statistics for the run, else its scorecards (a run whose cards
 * were never folded: stores without the change feed, cards written directly). The outcomes are as current as
 * the run's statistics, which can trail the scorecards by a batch while the feed catches up. `options.order`:
 * see `RunStatsStore.iterateOutcomes` ('any' for readers that index the cases by id).
 */
export async function runOutcomes(
  stores: { runStats: Pick<RunStatsStore, 'getRunStats' | 'iterateOutcomes'>; scorecards: Pick<ScorecardStore, 'iterateScorecards'> },
  runId: string,
  options: IterateOutcomesOptions = {},
): Promise<AsyncIterable<RunCaseOutcome>> {
  return (await stores.runStats.getRunStats(runId))
    ? stores.runStats.iterateOutcomes(runId, options)
    : stores.scorecards.iterateScorecards(runId);
}
