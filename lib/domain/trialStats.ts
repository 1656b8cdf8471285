import { z } from 'zod';

/**
 * What the trials of a run (`trials: k`) say, per case then averaged over cases (lib/runs/trialStats.ts):
 * pass@1 = the mean over cases of each case's pass fraction; pass@k and pass^k with the unbiased estimators
 * (lib/statistics passAtK / passHatK) over the cases with all k trials scored; a case is flaky when some of its
 * trials passed and some failed.
 */
export const TrialStatsSchema = z
  .object({
    trials: z.number().int().positive(),
    /** cases with at least one trial scored */
    cases: z.number().int().nonnegative(),
    /** cases with all k trials scored (the ones pass@k and pass^k are computed on) */
    complete_cases: z.number().int().nonnegative(),
    pass_at_1: z.number().min(0).max(1).nullable(),
    pass_at_k: z.number().min(0).max(1).nullable(),
    pass_hat_k: z.number().min(0).max(1).nullable(),
    /** cases whose trials disagree (some passed, some failed) */
    flaky_cases: z.number().int().nonnegative(),
    /** their ids, sorted, at most 100 */
    flaky_case_ids: z.array(z.string()),
  })
  .strict();
export type TrialStats = z.infer<typeof TrialStatsSchema>;
