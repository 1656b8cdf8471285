import { z } from 'zod';
import { defineRoute } from '../../route.js';
import { loadCase } from './testCaseBody.js';

const SimilarRequestSchema = z
  .object({
    text: z.string().min(1).max(10_000).optional().describe('the question to find near-duplicates of'),
    id: z.string().min(1).optional().describe('or: a stored case, whose question is searched (the case itself is left out)'),
    limit: z.number().int().min(1).max(100).default(10),
    min_score: z.number().min(0).max(1).default(0.5),
  })
  .strict()
  .refine((body) => (body.text === undefined) !== (body.id === undefined), { message: 'give either text or id', path: ['text'] });

const SimilarResponseSchema = z.object({
  items: z.array(z.object({ id: z.string(), question: z.string(), score: z.number().min(0).max(1) })),
});

export const similarTestCasesRoute = defineRoute({
  name: 'test-cases-similar',
  method: 'POST',
  path: 'v1/test-cases/similar',
  role: 'reader',
  tag: 'test-cases',
  summary:
    'Near-duplicates of a question among the stored cases, best first (score 0-1; 1 = the same question up to case, accents and punctuation)',
  body: SimilarRequestSchema,
  response: SimilarResponseSchema,
  responses: { 200: 'the near-duplicates, best first', 400: 'invalid body', 404: 'no case with that id' },
  handler: async ({ services, body }) => {
    const text = body.text ?? (await loadCase(services, body.id!)).nl_query;
    const exclude = body.id === undefined ? 0 : 1;
    const found = await services.stores.testCases.findSimilarTestCases(text, { limit: body.limit + exclude, minScore: body.min_score });
    const items = found
      .filter((f) => f.id !== body.id)
      .slice(0, body.limit)
      .map((f) => ({ id: f.id, question: f.nl_query, score: f.score }));
    return { status: 200, body: { items } };
  },
});
