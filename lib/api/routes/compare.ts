import { z } from 'zod';
import { ComparisonOptionsSchema, ComparisonSchema } from '../../domain/index.js';
import { compareRuns } from '../../compare/index.js';
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
  summary: 'Compare 2-10 finished runs with paired statistics: overall, per stage, category, tag and complexity; flipped cases; side by side',
  body: CompareRequestSchema,
  response: ComparisonSchema,
  responses: { 200: 'the comparison', 400: 'invalid body', 404: 'a run does not exist (named)', 409: 'a run has not finished' },
  handler: async ({ services, body }) => ({
    status: 200,
    body: await compareRuns(body.run_ids, { stores: services.stores, clock: services.clock }, body.options ?? {}),
  }),
});

/** Run comparison routes. */
export const COMPARE_ROUTES: readonly RouteDefinition[] = [compareRunsRoute];
