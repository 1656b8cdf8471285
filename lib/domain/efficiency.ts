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
