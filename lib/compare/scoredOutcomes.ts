import { isScored, type OutcomeFacts } from '../domain/index.js';

/** How many outcomes `scoredOutcomes` held back (the not-scored ones), known once the stream has been read. */
export interface NotScoredTally {
  not_scored: number;
}

/**
 * The scored outcomes of a stream (passed or failed); not-scored ones (infrastructure: `outcomeKindOf`) are
 * counted in `tally` and left out, so comparisons and regression checks never see an infrastructure failure as a
 * model failure (a case not scored on either side is simply not paired).
 */
export async function* scoredOutcomes<T extends OutcomeFacts>(source: AsyncIterable<T>, tally?: NotScoredTally): AsyncIterable<T> {
  for await (const outcome of source) {
    if (isScored(outcome)) yield outcome;
    else if (tally) tally.not_scored++;
  }
}
