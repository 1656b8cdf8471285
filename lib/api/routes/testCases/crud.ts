import { z } from 'zod';
import { TestCaseSchema } from '../../../domain/index.js';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../../../ports/index.js';
import { ApiError } from '../../problem.js';
import { defineRoute, type RouteContext } from '../../route.js';
import { etagMatches } from '../etags.js';
import { TestCaseBodySchema, caseResult, casePath, idWasGiven, loadCase, newCaseId, stamped } from './testCaseBody.js';

export const CaseParams = z.object({ id: z.string().min(1) });
const TAG = 'test-cases';

/** 412 unless If-Match is absent, `*` or lists the current ETag. */
function checkIfMatch(ctx: Pick<RouteContext<unknown, unknown, unknown>, 'headers'>, id: string, etag: string): void {
  if (!etagMatches(ctx.headers.get('if-match'), etag)) {
    throw new ApiError(
      412,
      'Precondition Failed',
      `test case "${id}" has changed since you read it (If-Match does not match its ETag); read it again and retry`,
      [],
      { etag },
    );
  }
}

export const createTestCaseRoute = defineRoute({
  name: 'test-cases-create',
  method: 'POST',
  path: 'v1/test-cases',
  role: 'test-admin',
  tag: TAG,
  summary: 'Create a test case (without an id it gets a UUID); metadata.created_at/updated_at are set by the server',
  body: TestCaseBodySchema,
  response: TestCaseSchema,
  responses: { 201: 'the case created (Location and ETag headers)', 400: 'invalid body', 409: 'a case with this id exists' },
  handler: async (ctx) => {
    const testCase = stamped(ctx.body, newCaseId(ctx.body), ctx.services.clock.now().toISOString());
    try {
      const created = await ctx.services.stores.testCases.createTestCase(testCase);
      return caseResult(201, created, { location: `${ctx.url.origin}/api/${casePath(created.id)}` });
    } catch (err) {
      if (err instanceof ConflictError)
        throw new ApiError(409, 'Conflict', `test case "${testCase.id}" already exists; change it with PUT /api/${casePath(testCase.id)}`);
      throw err;
    }
  },
});

export const getTestCaseRoute = defineRoute({
  name: 'test-cases-get',
  method: 'GET',
  path: 'v1/test-cases/{id}',
  role: 'reader',
  tag: TAG,
  summary: 'A test case (its ETag in the ETag header)',
  params: CaseParams,
  response: TestCaseSchema,
  responses: { 200: 'the case', 404: 'no such case' },
  handler: async ({ services, params }) => caseResult(200, await loadCase(services, params.id)),
});

export const replaceTestCaseRoute = defineRoute({
  name: 'test-cases-replace',
  method: 'PUT',
  path: 'v1/test-cases/{id}',
  role: 'test-admin',
  tag: TAG,
  summary: 'Replace a test case; send If-Match with the ETag you read to fail (412) instead of overwriting a newer version',
  params: CaseParams,
  body: TestCaseBodySchema,
  response: TestCaseSchema,
  responses: {
    200: 'the case replaced (new ETag)',
    400: 'invalid body, or an id that differs from the path',
    404: 'no such case',
    412: 'If-Match does not match the current ETag',
  },
  handler: async (ctx) => {
    const { id } = ctx.params;
    if (idWasGiven(ctx.body) && ctx.body.id !== id)
      throw new ApiError(
        400,
        'Bad Request',
        `the body's id "${ctx.body.id}" differs from the path's "${id}"; ids cannot be changed (duplicate the case instead)`,
        [{ path: 'body.id', message: `must be "${id}" or left out` }],
      );
    const current = await loadCase(ctx.services, id);
    checkIfMatch(ctx, id, current._etag);
    const next = stamped(ctx.body, id, ctx.services.clock.now().toISOString(), current.metadata.created_at);
    try {
      return caseResult(200, await ctx.services.stores.testCases.replaceTestCase(next, { ifMatch: current._etag }));
    } catch (err) {
      if (err instanceof PreconditionFailedError)
        throw new ApiError(
          412,
          'Precondition Failed',
          `test case "${id}" was changed by someone else while this request ran; read it again and retry`,
        );
      if (err instanceof NotFoundError) throw new ApiError(404, 'Not Found', `test case "${id}" was deleted while this request ran`);
      throw err;
    }
  },
});

export const deleteTestCaseRoute = defineRoute({
  name: 'test-cases-delete',
  method: 'DELETE',
  path: 'v1/test-cases/{id}',
  role: 'test-admin',
  tag: TAG,
  summary: 'Delete a test case (idempotent; static suites that list it keep the id and skip it at run time)',
  params: CaseParams,
  responses: { 204: 'deleted (also when it did not exist)', 412: 'If-Match does not match the current ETag' },
  handler: async (ctx) => {
    const current = await ctx.services.stores.testCases.getTestCase(ctx.params.id);
    if (!current) return { status: 204 };
    checkIfMatch(ctx, current.id, current._etag);
    await ctx.services.stores.testCases.deleteTestCase(current.id);
    return { status: 204 };
  },
});
