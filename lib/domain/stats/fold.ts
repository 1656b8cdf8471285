import { outcomeId, type CaseOutcome } from './caseOutcome.js';
import { encodeOutcome } from './outcomeCodec.js';
import { RunStatsAccumulator } from './runStatsAccumulator.js';
import type { RunStatsState } from './runStatsState.js';

/**
 * Replaces a case's counted outcome in a state: subtracts `previous` (the outcome counted so far for the same
 * case, if any) and adds `next`. Exact (integer counters), order-independent, and a no-op when previous equals
 * next. Pure: returns a new state. For many outcomes use RunStatsAccumulator (one load, one write).
 */
export function applyOutcome(state: RunStatsState, previous: CaseOutcome | undefined, next: CaseOutcome): RunStatsState {
  const acc = RunStatsAccumulator.fromState(state);
  acc.apply(previous, next);
  return acc.toState();
}

/** The recount: folds one outcome per case (as the scorecard store holds them) from scratch. */
export function recomputeFrom(outcomes: Iterable<CaseOutcome>): RunStatsState {
  const acc = RunStatsAccumulator.empty();
  for (const outcome of outcomes) acc.add(outcome);
  return acc.toState();
}

/**
 * Whether a delivered outcome replaces the one counted for its case: always when none is counted; never when
 * it is an older attempt or identical (a redelivery: equal `encodeOutcome` text); otherwise yes (a retry, or the latest version of the same
 * attempt: the feed delivers in write order). The run-statistics store applies exactly this rule.
 */
export function replacesCounted(counted: CaseOutcome | undefined, next: CaseOutcome): boolean {
  if (!counted) return true;
  return replacesCountedText(encodeOutcome(counted), counted, encodeOutcome(next), next);
}

/** `replacesCounted` for callers that already hold both outcomes' `encodeOutcome` text. */
export function replacesCountedText(countedText: string, counted: CaseOutcome, nextText: string, next: CaseOutcome): boolean {
  return next.attempt_number >= counted.attempt_number && countedText !== nextText;
}

/**
 * The reference model of the live fold: delivers outcomes one by one, keeping each case's counted outcome and
 * applying only changes. Holds one outcome per case in memory (tests and small runs; the store keeps them in
 * SQLite instead).
 */
export function foldDeliveries(deliveries: Iterable<CaseOutcome>, initial?: RunStatsState): RunStatsState {
  const acc = initial ? RunStatsAccumulator.fromState(initial) : RunStatsAccumulator.empty();
  const counted = new Map<string, CaseOutcome>();
  for (const next of deliveries) {
    const key = outcomeId(next.run_id, next.test_case_id);
    const previous = counted.get(key);
    if (!replacesCounted(previous, next)) continue;
    acc.apply(previous, next);
    counted.set(key, next);
  }
  return acc.toState();
}
