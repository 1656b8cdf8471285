import { z } from 'zod';
import { NotFoundError, PreconditionFailedError, type Services, type WithEtag } from '../../ports/index.js';
import type { TestSuite } from '../../domain/index.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteContext, type RouteDefinition } from '../route.js';
import { PagingQuery, withoutEtag } from './entityRoutes.js';
import { etagMatches } from './etags.js';
import { requireStatic, requireTestCases, uniqueIds } from './suiteMembers.js';
import { liveSuiteCaseIds } from '../../runs/index.js';

const SuiteParams = z.object({ id: z.string().min(1) });
const IdsBody = z.object({ ids: z.array(z.string().min(1)).min(1).max(100_000) }).strict();
const WRITE_ATTEMPTS = 3;

async function getSuite(services: Services, id: string): Promise<WithEtag<TestSuite>> {
  const suite = await services.stores.suites.get(id);
  if (!suite) throw new ApiError(404, 'Not Found', `test suite "${id}" does not exist`);
  return suite;
}

/**
 * Changes a static suite's member list: reads it, applies `change`, and writes it back only if nobody wrote in
 * between (ETag); retried up to 3 times unless the caller sent its own If-Match (then a mismatch is 412).
 */
async function changeMembers<R>(
  ctx: Pick<RouteContext<unknown, unknown, unknown>, 'services' | 'headers'>,
  id: string,
  change: (suite: TestSuite) => Promise<{ ids: string[]; result: R }>,
): Promise<{ suite: WithEtag<TestSuite>; result: R }> {
  const ifMatch = ctx.headers.get('if-match');
  for (let attempt = 1; ; attempt++) {
    const current = await getSuite(ctx.services, id);
    if (!etagMatches(ifMatch, current._etag))
      throw new ApiError(
        412,
        'Precondition Failed',
        `test suite "${id}" has changed since you read it (If-Match does not match its ETag)`,
        [],
        { etag: current._etag },
      );
    requireStatic(current);
    const { ids, result } = await change(current);
    if (ids.length === current.test_case_ids.length && ids.every((x, i) => x === current.test_case_ids[i]))
      return { suite: current, result };
    const next: TestSuite = { ...withoutEtag(current), test_case_ids: ids, updated_at: ctx.services.clock.now().toISOString() };
    try {
      return { suite: await ctx.services.stores.suites.replace(next, { ifMatch: current._etag }), result };
    } catch (err) {
      if (err instanceof NotFoundError) throw new ApiError(404, 'Not Found', `test suite "${id}" was deleted while this request ran`);
      if (!(err instanceof PreconditionFailedError) || ifMatch || attempt >= WRITE_ATTEMPTS) {
        if (err instanceof PreconditionFailedError)
          throw new ApiError(412, 'Precondition Failed', `test suite "${id}" was changed by someone else while this request ran; retry`);
        throw err;
      }
    }
  }
}

export const listSuiteCasesRoute = defineRoute({
  name: 'test-suites-cases-list',
  method: 'GET',
  path: 'v1/test-suites/{id}/test-cases',
  role: 'reader',
  tag: 'test-suites',
  summary: "The suite's test cases resolved now (a static suite's ids in order, or a dynamic suite's filter), paged",
  params: SuiteParams,
  query: PagingQuery,
  responses: {
    200: 'a page of test cases; missing_ids lists ids of a static suite on this page that no longer exist',
    404: 'no such suite',
  },
  handler: async ({ services, params, query }) => {
    const suite = await getSuite(services, params.id);
    if (suite.kind === 'dynamic' && suite.query) {
      // a query decides on each case's body: resolved in full, then paged
      const ids = await liveSuiteCaseIds(suite, services.stores);
      const window = ids.slice(query.offset, query.offset + query.limit);
      const items = await services.stores.testCases.getTestCases(window);
      const body = {
        items,
        total: ids.length,
        has_more: query.offset + window.length < ids.length,
        limit: query.limit,
        offset: query.offset,
        missing_ids: [],
      };
      return { status: 200, body };
    }
    if (suite.kind === 'dynamic') {
      const page = await services.stores.testCases.listTestCases(suite.filter, query);
      return { status: 200, body: { ...page, items: page.items.map((c) => withoutEtag(c)), missing_ids: [] } };
    }
    const ids = uniqueIds(suite.test_case_ids);
    const window = ids.slice(query.offset, query.offset + query.limit);
    const items = await services.stores.testCases.getTestCases(window);
    const found = new Set(items.map((c) => c.id));
    const body = {
      items,
      total: ids.length,
      has_more: query.offset + window.length < ids.length,
      limit: query.limit,
      offset: query.offset,
      missing_ids: window.filter((id) => !found.has(id)),
    };
    return { status: 200, body };
  },
});

export const addSuiteCasesRoute = defineRoute({
  name: 'test-suites-cases-add',
  method: 'POST',
  path: 'v1/test-suites/{id}/test-cases',
  role: 'suite-admin',
  tag: 'test-suites',
  summary: 'Add test cases to a static suite (ids already in it are left as they are)',
  params: SuiteParams,
  body: IdsBody,
  responses: {
    200: '{added, already_present, test_case_count}; the new ETag in the header',
    404: 'no such suite',
    409: 'the suite is dynamic',
    412: 'If-Match does not match',
    422: 'unknown test case ids (named)',
  },
  handler: async (ctx) => {
    const { suite, result } = await changeMembers(ctx, ctx.params.id, async (current) => {
      const present = new Set(current.test_case_ids);
      const fresh = uniqueIds(ctx.body.ids).filter((id) => !present.has(id));
      await requireTestCases(ctx.services.stores.testCases, ctx.body.ids, 'ids');
      return {
        ids: [...current.test_case_ids, ...fresh],
        result: { added: fresh.length, already_present: uniqueIds(ctx.body.ids).length - fresh.length },
      };
    });
    return { status: 200, headers: { etag: suite._etag }, body: { ...result, test_case_count: suite.test_case_ids.length } };
  },
});

async function removeMembers(
  ctx: Pick<RouteContext<unknown, unknown, unknown>, 'services' | 'headers'>,
  id: string,
  ids: readonly string[],
) {
  const gone = new Set(ids);
  return changeMembers(ctx, id, async (current) => {
    const kept = current.test_case_ids.filter((x) => !gone.has(x));
    return {
      ids: kept,
      result: {
        removed: current.test_case_ids.length - kept.length,
        not_present: uniqueIds(ids).length - (current.test_case_ids.length - kept.length),
      },
    };
  });
}

export const removeSuiteCasesRoute = defineRoute({
  name: 'test-suites-cases-remove',
  method: 'POST',
  path: 'v1/test-suites/{id}/test-cases/remove',
  role: 'suite-admin',
  tag: 'test-suites',
  summary: 'Remove test cases from a static suite (ids not in it are ignored)',
  params: SuiteParams,
  body: IdsBody,
  responses: {
    200: '{removed, not_present, test_case_count}; the new ETag in the header',
    404: 'no such suite',
    409: 'the suite is dynamic',
    412: 'If-Match does not match',
  },
  handler: async (ctx) => {
    const { suite, result } = await removeMembers(ctx, ctx.params.id, ctx.body.ids);
    return { status: 200, headers: { etag: suite._etag }, body: { ...result, test_case_count: suite.test_case_ids.length } };
  },
});

export const deleteSuiteCaseRoute = defineRoute({
  name: 'test-suites-case-delete',
  method: 'DELETE',
  path: 'v1/test-suites/{id}/test-cases/{caseId}',
  role: 'suite-admin',
  tag: 'test-suites',
  summary: 'Remove one test case from a static suite (idempotent)',
  params: z.object({ id: z.string().min(1), caseId: z.string().min(1) }),
  responses: {
    204: "removed (also when it was not in the suite); the ETag header is the suite's",
    404: 'no such suite',
    409: 'the suite is dynamic',
    412: 'If-Match does not match',
  },
  handler: async (ctx) => {
    const { suite } = await removeMembers(ctx, ctx.params.id, [ctx.params.caseId]);
    return { status: 204, headers: { etag: suite._etag } };
  },
});

/** Member routes of a suite: the resolved cases (any suite) and adding/removing cases (static suites only). */
export const SUITE_CASE_ROUTES: readonly RouteDefinition[] = [
  listSuiteCasesRoute,
  addSuiteCasesRoute,
  removeSuiteCasesRoute,
  deleteSuiteCaseRoute,
];
