import { z } from 'zod';

/**
 * How economically a case was answered, apart from whether it was right (issue 12): the calls the agent made against
 * the calls the gold needs, the redundant ones (the same call with the same arguments made again and answered with
 * the same result), the model requests and tokens it spent. `score` = 1 when it made no more calls than needed,
 * else needed / made (0 when no call was needed and some were made). Correctness is the pass/fail beside it; a run
 * with `fail_on_redundant_calls` also fails a case with a redundant call (`redundant_call`).
 */
export const EfficiencySchema = z
  .object({
    calls_made: z.number().int().nonnegative(),
    /** the calls of the expected call set stage 2 matched (summed over the turns of a conversation) */
    calls_needed: z.number().int().nonnegative(),
    /**
     * calls that repeat an earlier call of the case (same tool, same arguments) and got the same result; without a
     * trajectory the results are unknown and a repeated identical call counts
     */
    redundant_calls: z.number().int().nonnegative(),
    /** model requests (tool-loop turns; 1 per answer for a target without a loop) */
    model_turns: z.number().int().nonnegative(),
    /** user turns of the conversation (1 for a single-question case) */
    conversation_turns: z.number().int().positive(),
    /** input + output tokens the target spent */
    tokens: z.number().int().nonnegative(),
    score: z.number().min(0).max(1),
  })
  .strict();
export type Efficiency = z.infer<typeof EfficiencySchema>;

/** The efficiency of a run's scored cases (GET /runs/{id}, reports). Means are over the cases that have one. */
export const EfficiencyStatsSchema = z
  .object({
    cases: z.number().int().nonnegative(),
    mean_score: z.number().min(0).max(1).nullable(),
    calls_made: z.number().int().nonnegative(),
    calls_needed: z.number().int().nonnegative(),
    redundant_calls: z.number().int().nonnegative(),
    cases_with_redundant_calls: z.number().int().nonnegative(),
    mean_model_turns: z.number().nonnegative().nullable(),
    mean_tokens: z.number().nonnegative().nullable(),
  })
  .strict();
export type EfficiencyStats = z.infer<typeof EfficiencyStatsSchema>;

/** The efficiency score of calls made against calls needed (see EfficiencySchema). */
export function efficiencyScore(made: number, needed: number): number {
  if (made <= needed) return 1;
  return Math.round((needed / made) * 1e6) / 1e6;
}

/** What run statistics keep of a case's efficiency (a whole scorecard's efficiency parses as this too). */
export const OutcomeEfficiencySchema = z.object({
  calls_made: z.number().int().nonnegative(),
  calls_needed: z.number().int().nonnegative(),
  redundant_calls: z.number().int().nonnegative(),
  model_turns: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  score: z.number().min(0).max(1),
});
export type OutcomeEfficiency = z.infer<typeof OutcomeEfficiencySchema>;

const Int = z.number().int();

/**
 * The efficiency of a set of scored cases as integer sums (the score in units of 1e-9), so adding and subtracting
 * cases is exact in any order: the live run statistics fold them, EfficiencyStatsBuilder sums scorecards the same
 * way, and both give their EfficiencyStats through `efficiencyStatsOfSums`.
 */
export const EfficiencySumsSchema = z.object({
  cases: Int,
  score_sum_e9: Int,
  calls_made: Int,
  calls_needed: Int,
  redundant_calls: Int,
  cases_with_redundant_calls: Int,
  model_turns: Int,
  tokens: Int,
});
export type EfficiencySums = z.infer<typeof EfficiencySumsSchema>;

export function emptyEfficiencySums(): EfficiencySums {
  return {
    cases: 0,
    score_sum_e9: 0,
    calls_made: 0,
    calls_needed: 0,
    redundant_calls: 0,
    cases_with_redundant_calls: 0,
    model_turns: 0,
    tokens: 0,
  };
}

/** Adds (sign 1) or subtracts (-1) one scored case's efficiency. */
export function addEfficiency(sums: EfficiencySums, e: OutcomeEfficiency, sign: 1 | -1): void {
  sums.cases += sign;
  sums.score_sum_e9 += sign * Math.round(e.score * 1e9);
  sums.calls_made += sign * e.calls_made;
  sums.calls_needed += sign * e.calls_needed;
  sums.redundant_calls += sign * e.redundant_calls;
  if (e.redundant_calls > 0) sums.cases_with_redundant_calls += sign;
  sums.model_turns += sign * e.model_turns;
  sums.tokens += sign * e.tokens;
}

/** The EfficiencyStats of sums: means over the cases that have an efficiency, rounded to 1e-6 (null when none). */
export function efficiencyStatsOfSums(sums: EfficiencySums): EfficiencyStats {
  const cases = Math.max(0, sums.cases);
  const mean = (sum: number) => (cases ? Math.round((Math.max(0, sum) / cases) * 1e6) / 1e6 : null);
  return {
    cases,
    mean_score: cases ? Math.min(1, mean(sums.score_sum_e9 / 1e9)!) : null,
    calls_made: Math.max(0, sums.calls_made),
    calls_needed: Math.max(0, sums.calls_needed),
    redundant_calls: Math.max(0, sums.redundant_calls),
    cases_with_redundant_calls: Math.max(0, sums.cases_with_redundant_calls),
    mean_model_turns: mean(sums.model_turns),
    mean_tokens: mean(sums.tokens),
  };
}
