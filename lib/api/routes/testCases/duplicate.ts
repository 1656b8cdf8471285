import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { TestCaseSchema } from '../../../domain/index.js';
import { ConflictError } from '../../../ports/index.js';
import { ApiError } from '../../problem.js';
import { defineRoute } from '../../route.js';
import { withoutEtag } from '../entityRoutes.js';
import { CaseParams } from './crud.js';
import { caseResult, casePath, loadCase, stamped } from './testCaseBody.js';

export const duplicateTestCaseRoute = defineRoute({
  name: 'test-cases-duplicate',
  method: 'POST',
  path: 'v1/test-cases/{id}/duplicate',
  role: 'test-admin',
  tag: 'test-cases',
  summary: 'Copy a test case under a new id (given, or a UUID), optionally with another question; new timestamps',
  params: CaseParams,
  body: z.object({ id: z.string().min(1).optional(), nl_query: z.string().min(1).optional() }).strict(),
  response: TestCaseSchema,
  responses: {
    201: 'the copy (Location and ETag headers)',
    400: 'invalid body',
    404: 'no such case',
    409: 'a case with the new id exists',
  },
  handler: async (ctx) => {
    const source = withoutEtag(await loadCase(ctx.services, ctx.params.id));
    const id = ctx.body.id ?? randomUUID();
    const now = ctx.services.clock.now().toISOString();
    const copy = stamped({ ...source, ...(ctx.body.nl_query ? { nl_query: ctx.body.nl_query } : {}) }, id, now, now);
    try {
      const created = await ctx.services.stores.testCases.createTestCase(copy);
      return caseResult(201, created, { location: `${ctx.url.origin}/api/${casePath(id)}` });
    } catch (err) {
      if (err instanceof ConflictError)
        throw new ApiError(409, 'Conflict', `test case "${id}" already exists; pick another id`, [
          { path: 'body.id', message: 'already exists' },
        ]);
      throw err;
    }
  },
});
