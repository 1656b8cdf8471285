import { caseOutcomeOf, contentHash, type RunStats, toRunStats } from '../lib/domain/index.js';
import { recomputeFrom } from '../lib/domain/stats/index.js';
import type { Stores } from '../lib/ports/index.js';

/** A run's statistics without the field that only says when they were written. */
function comparable(stats: RunStats | undefined): Omit<RunStats, 'updated_at'> | null {
  if (!stats) return null;
  const { updated_at: _when, ...rest } = stats;
  return rest;
}

/**
 * A checksum of a run's live statistics (what the change feed folded case by case) and of the same statistics
 * recounted from the stored scorecards: equal when no case was lost or counted twice and the fold computes what a
 * recount does. `bench:run` prints both, so a faster write or fold path cannot change the figures unnoticed.
 */
export async function statsChecksum(
  stores: Pick<Stores, 'runStats' | 'scorecards'>,
  runId: string,
): Promise<{ live: string; recount: string }> {
  const live = await stores.runStats.getRunStats(runId);
  const outcomes = [];
  for await (const card of stores.scorecards.iterateScorecards(runId)) outcomes.push(caseOutcomeOf(card));
  const recount = live ? toRunStats(runId, recomputeFrom(outcomes), live.total, live.updated_at) : undefined;
  return { live: contentHash(comparable(live)).slice(0, 16), recount: contentHash(comparable(recount)).slice(0, 16) };
}
