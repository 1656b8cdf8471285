import { z } from 'zod';
import { STAGE_NAMES, type StageName } from '../stageResult.js';
import { EfficiencySumsSchema, emptyEfficiencySums } from '../efficiency.js';

const Int = z.number().int();
const CountsSchema = z.object({ completed: Int, passed: Int });
export type Counts = z.infer<typeof CountsSchema>;

/**
 * The fold's JSON-serialisable state for one run: only integer counters, so adding and subtracting outcomes is
 * exact and order-independent (floats are kept in fixed point: scores and costs in units of 1e-9, latency in µs).
 * Keyed counters never hold zero entries, so a fold and a recount of the same cases are deeply equal.
 * Counters may go negative only if an outcome is subtracted that was never added (a caller bug).
 */
export const RunStatsStateSchema = z.object({
  v: z.literal(1),
  /** every counted case, scored or not */
  completed: Int,
  /** cases the platform could not score (outcome `not_scored`): counted here, in error_codes, tokens and cost only */
  not_scored: Int.default(0),
  passed: Int,
  /** Σ overall_score, in units of 1e-9 */
  score_sum_e9: Int,
  /** per stage: ran = status other than `skipped` (an `error` ran and did not pass) */
  stages: z.object({ syntax: CountsOfStage(), logic: CountsOfStage(), execution: CountsOfStage(), semantics: CountsOfStage() }),
  latency: z.object({ zero: Int, buckets: z.record(z.string(), Int) }),
  /** Σ latency_ms, in µs */
  latency_sum_us: Int,
  tokens: z.object({ input: Int, output: Int }),
  /** Σ estimated_cost_usd, in units of 1e-9 USD */
  cost_e9_usd: Int,
  by_category: z.record(z.string(), CountsSchema),
  by_tag: z.record(z.string(), CountsSchema),
  by_complexity: z.record(z.string(), CountsSchema),
  error_codes: z.record(z.string(), Int),
  client_versions: z.record(z.string(), Int),
  /**
   * efficiency sums of the scored cases that have one; absent in a state stored before they were folded (such a
   * run's efficiency is read from its scorecards: counting from the middle of a run would be wrong)
   */
  efficiency: EfficiencySumsSchema.optional(),
});
export type RunStatsState = z.infer<typeof RunStatsStateSchema>;
export type StageCounts = RunStatsState['stages'][StageName];

function CountsOfStage() {
  return z.object({ ran: Int, passed: Int });
}

/** The key `by_category` uses for outcomes whose category is null. */
export const NO_CATEGORY = '(none)';

export function emptyRunStatsState(): RunStatsState {
  const stages = Object.fromEntries(STAGE_NAMES.map((stage) => [stage, { ran: 0, passed: 0 }])) as Record<StageName, StageCounts>;
  return {
    v: 1,
    completed: 0,
    not_scored: 0,
    passed: 0,
    score_sum_e9: 0,
    stages,
    latency: { zero: 0, buckets: {} },
    latency_sum_us: 0,
    tokens: { input: 0, output: 0 },
    cost_e9_usd: 0,
    by_category: {},
    by_tag: {},
    by_complexity: {},
    error_codes: {},
    client_versions: {},
    efficiency: emptyEfficiencySums(),
  };
}

/**
 * Parses a stored state (JSON text); throws when it is not a state this code wrote (corrupt storage). Returns the
 * parsed object itself once the schema accepts it: zod's record output would drop a `__proto__` key (a tag or
 * category can be named anything), JSON.parse keeps it as an own property.
 */
export function parseRunStatsState(json: string): RunStatsState {
  const parsed: unknown = JSON.parse(json);
  RunStatsStateSchema.parse(parsed);
  const state = parsed as RunStatsState;
  // states stored before not-scored outcomes existed counted none
  if ((state as { not_scored?: number }).not_scored === undefined) state.not_scored = 0;
  return state;
}
