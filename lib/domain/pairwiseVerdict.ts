import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';

/** A stored pairwise verdict on one shared case of two runs (A = the reference run, B = the candidate). */
export const PairwiseVerdictSchema = z
  .object({
    /** `<run_a>~<run_b>~<test_case_id>~<judge model>`: the cache key */
    id: z.string().min(1),
    /** the owning organization, stamped by the organization-scoped stores (absent: `default`) */
    organization: OrganizationFieldSchema,
    run_a: z.string().min(1),
    run_b: z.string().min(1),
    test_case_id: z.string().min(1),
    category: z.string().nullable(),
    /** after both orders: A or B when both passes agree, else tie */
    winner: z.enum(['A', 'B', 'tie']),
    consistent: z.boolean(),
    score_a: z.number(),
    score_b: z.number(),
    model: z.string(),
    reasoning: z.string(),
    cost_usd: z.number().nonnegative(),
    created_at: z.iso.datetime({ offset: true }),
  })
  .strict();
export type PairwiseVerdict = z.infer<typeof PairwiseVerdictSchema>;

const CountsSchema = z.object({
  /** B better */
  wins: z.number().int().nonnegative(),
  ties: z.number().int().nonnegative(),
  /** A better */
  losses: z.number().int().nonnegative(),
  /** B's win rate over decisive pairs, wins / (wins + losses), with its 95% Wilson interval; null without any */
  win_rate: z.object({ estimate: z.number(), lower: z.number(), upper: z.number() }).nullable(),
});

export const PairwiseComparisonSchema = z.object({
  run_a: z.string(),
  run_b: z.string(),
  judge_model: z.string(),
  /** shared cases with an answer on both sides */
  compared: z.number().int().nonnegative(),
  /** served from stored verdicts */
  cached: z.number().int().nonnegative(),
  /** the judge could not give a verdict (not counted as ties) */
  failed: z.number().int().nonnegative(),
  /** pairs whose two orders disagreed (counted as ties) */
  inconsistent: z.number().int().nonnegative(),
  overall: CountsSchema,
  by_category: z.array(CountsSchema.extend({ category: z.string() })),
  cost_usd: z.number().nonnegative(),
});
export type PairwiseComparison = z.infer<typeof PairwiseComparisonSchema>;
