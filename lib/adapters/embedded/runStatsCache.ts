import { RunStatsAccumulator, parseRunStatsState } from '../../domain/index.js';

/**
 * The accumulators of recently folded runs, each keyed by the exact state text it wrote. Loading a run compares
 * the stored text with the cached one: equal means the accumulator is that state, so the batch skips parsing and
 * validating it (~170 µs per batch); anything else (another writer, a rolled-back transaction, a restart) falls
 * back to parsing. `take` removes the entry, so a fold that fails half-way can never be reused.
 */
export class RunStatsCache {
  private readonly entries = new Map<string, { text: string; acc: RunStatsAccumulator }>();

  constructor(private readonly maxRuns = 64) {}

  /** The accumulator of the state stored as `storedText` (cached or parsed); the caller owns it now. */
  take(runId: string, storedText: string): RunStatsAccumulator {
    const entry = this.entries.get(runId);
    this.entries.delete(runId);
    if (entry && entry.text === storedText) return entry.acc;
    return RunStatsAccumulator.fromState(parseRunStatsState(storedText));
  }

  /** Remembers `acc` as the accumulator of the state text just written (most recent last; oldest evicted). */
  put(runId: string, text: string, acc: RunStatsAccumulator): void {
    this.entries.delete(runId);
    this.entries.set(runId, { text, acc });
    if (this.entries.size > this.maxRuns) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
