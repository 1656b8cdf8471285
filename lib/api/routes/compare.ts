import { z } from 'zod';
import { ComparisonOptionsSchema, ComparisonSchema, PairwiseComparisonSchema } from '../../domain/index.js';
import { compareRuns, pairwiseCompareRuns } from '../../compare/index.js';
import { JudgeConfigurationError } from '../../judges/index.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteDefinition } from '../route.js';

export const CompareRequestSchema = z
  .object({
    /** 2 to 10 run ids; the first is the reference the others are paired with */
    run_ids: z.array(z.string().min(1)).min(2).max(10),
    options: ComparisonOptionsSchema.partial().strict().optional(),
  })
  .strict();

export const compareRunsRoute = defineRoute({
  name: 'compare-runs',
  method: 'POST',
  path: 'v1/compare',
  role: 'reader',
  tag: 'compare',
  summary:
    'Compare 2-10 finished runs with paired statistics: overall, per stage, category, tag and complexity; flipped cases; side by side',
  body: CompareRequestSchema,
  response: ComparisonSchema,
  responses: { 200: 'the comparison', 400: 'invalid body', 404: 'a run does not exist (named)', 409: 'a run has not finished' },
  handler: async ({ services, body }) => ({
    status: 200,
    body: await compareRuns(body.run_ids, { stores: services.stores, clock: services.clock }, body.options ?? {}),
  }),
});

export const pairwiseCompareRoute = defineRoute({
  name: 'compare-pairwise',
  method: 'POST',
  path: 'v1/compare/pairwise',
  role: 'runner',
  tag: 'compare',
  summary:
    'Pairwise LLM verdicts on the cases two runs share: each pair judged in both orders (inconsistent = tie), win/tie/loss of the second run with a Wilson win-rate interval, per category; verdicts stored and reused',
  body: z.object({ run_ids: z.tuple([z.string().min(1), z.string().min(1)]), model: z.string().min(1).optional() }).strict(),
  response: PairwiseComparisonSchema,
  responses: {
    200: 'win/tie/loss',
    400: 'invalid body',
    404: 'a run does not exist',
    422: 'no pairwise judge configured (OpenAI / Azure OpenAI settings)',
  },
  handler: async ({ services, body }) => {
    if (!services.pairwiseJudge) throw new ApiError(422, 'Unprocessable Content', 'this platform has no pairwise judge');
    let judge;
    try {
      judge = services.pairwiseJudge(body.model);
    } catch (error) {
      if (error instanceof JudgeConfigurationError) throw new ApiError(422, 'Unprocessable Content', error.message);
      throw error;
    }
    const [a, b] = body.run_ids;
    return { status: 200, body: await pairwiseCompareRuns(a, b, { stores: services.stores, clock: services.clock, judge }) };
  },
});

/** Run comparison routes. */
export const COMPARE_ROUTES: readonly RouteDefinition[] = [compareRunsRoute, pairwiseCompareRoute];
