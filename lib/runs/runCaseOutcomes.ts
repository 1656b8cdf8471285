import { scorecardKeyOf, type KeyedCaseOutcome } from '../domain/index.js';
import { runOutcomes, scoredOutcomes } from '../compare/index.js';
import type { Stores } from '../ports/index.js';

/**
 * A run's scored per-case outcomes (each trial its own key, as run statistics count them): pass/fail, latency and
 * cost, keyed and labelled by the case's key (`test_case_id`: the trial key after trial 1, whether the run's outcomes
 * come from its statistics or its scorecards); the latest attempt wins. Not-scored outcomes (infrastructure faults)
 * are left out. Experiments and benchmarks read runs through it.
 */
export async function scoredCaseOutcomesOf(runId: string, stores: Stores): Promise<Map<string, KeyedCaseOutcome>> {
  const out = new Map<string, KeyedCaseOutcome & { attempt: number }>();
  const tally = { not_scored: 0 };
  for await (const o of scoredOutcomes(await runOutcomes(stores, runId, { order: 'any' }), tally)) {
    const key = scorecardKeyOf(o);
    const previous = out.get(key);
    if (previous && previous.attempt > o.attempt_number) continue;
    out.set(key, {
      test_case_id: key,
      passed: o.overall_passed,
      latency_ms: o.latency_ms,
      cost_usd: o.estimated_cost_usd,
      attempt: o.attempt_number,
    });
  }
  return new Map([...out].map(([k, { attempt: _attempt, ...v }]) => [k, v]));
}
