import { z } from 'zod';
import { SuiteVersionCaseSchema, SuiteVersionDiffSchema, SuiteVersionSchema, type TestCase } from '../../domain/index.js';
import { diffPublishedVersions, publishSuiteVersion } from '../../runs/index.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { PagingQuery } from './entityRoutes.js';

const SuiteParams = z.object({ id: z.string().min(1) });
const VersionParams = z.object({ id: z.string().min(1), version: z.coerce.number().int().positive() });
const PublishBody = z.object({ note: z.string().max(2_000).optional() }).strict();
const DiffQuery = z
  .object({
    from: z.coerce.number().int().positive(),
    to: z.coerce.number().int().positive(),
  })
  .strict();
const CasesQuery = PagingQuery.extend({
  /** `true`: each item carries its published body (`test_case`) */
  bodies: z.enum(['true', 'false']).default('false'),
}).strict();

const VersionCaseView = SuiteVersionCaseSchema.extend({ test_case: z.record(z.string(), z.unknown()).optional() });

export const publishSuiteVersionRoute = defineRoute({
  name: 'test-suites-versions-publish',
  method: 'POST',
  path: 'v1/test-suites/{id}/versions',
  role: 'suite-admin',
  tag: 'test-suites',
  summary:
    'Publish the suite as its next immutable version: the case ids it resolves to now, each with the content hash of its body (runs then pin it by default)',
  params: SuiteParams,
  body: PublishBody,
  responses: { 201: 'the version (number, author = the caller, note, case_count, content_hash)', 404: 'no such suite' },
  response: SuiteVersionSchema,
  handler: async ({ services, params, body, principal, url }) => {
    const author = principal?.name ?? 'anonymous';
    const version = await publishSuiteVersion(params.id, { author, ...(body.note !== undefined ? { note: body.note } : {}) }, services);
    return {
      status: 201,
      headers: { location: new URL(`/api/v1/test-suites/${encodeURIComponent(params.id)}/versions/${version.version}`, url).toString() },
      body: version,
    };
  },
});

export const listSuiteVersionsRoute = defineRoute({
  name: 'test-suites-versions-list',
  method: 'GET',
  path: 'v1/test-suites/{id}/versions',
  role: 'reader',
  tag: 'test-suites',
  summary: "The suite's published versions, newest first",
  params: SuiteParams,
  responses: { 200: '{items: versions}', 404: 'no such suite' },
  response: z.object({ items: z.array(SuiteVersionSchema) }),
  handler: async ({ services, params }) => {
    if (!(await services.stores.suites.get(params.id))) throw new ApiError(404, 'Not Found', `test suite "${params.id}" does not exist`);
    return { status: 200, body: { items: await services.stores.suiteVersions.listVersions(params.id) } };
  },
});

export const getSuiteVersionRoute = defineRoute({
  name: 'test-suites-versions-get',
  method: 'GET',
  path: 'v1/test-suites/{id}/versions/{version}',
  role: 'reader',
  tag: 'test-suites',
  summary: 'One published version of a suite',
  params: VersionParams,
  responses: { 200: 'the version', 404: 'no such suite version' },
  response: SuiteVersionSchema,
  handler: async ({ services, params }) => {
    const version = await services.stores.suiteVersions.getVersion(params.id, params.version);
    if (!version) throw new ApiError(404, 'Not Found', `test suite "${params.id}" has no published version ${params.version}`);
    return { status: 200, body: version };
  },
});

export const listSuiteVersionCasesRoute = defineRoute({
  name: 'test-suites-versions-cases',
  method: 'GET',
  path: 'v1/test-suites/{id}/versions/{version}/test-cases',
  role: 'reader',
  tag: 'test-suites',
  summary: "A published version's cases in order (id, position, content hash; with bodies=true the published body), paged",
  params: VersionParams,
  query: CasesQuery,
  responses: { 200: 'a page of the version cases', 404: 'no such suite version' },
  response: z.object({
    items: z.array(VersionCaseView),
    total: z.number().int(),
    has_more: z.boolean(),
    limit: z.number().int(),
    offset: z.number().int(),
  }),
  handler: async ({ services, params, query }) => {
    const page = await services.stores.suiteVersions.listCases(params.id, params.version, { limit: query.limit, offset: query.offset });
    if (query.bodies === 'false') return { status: 200, body: page };
    const bodies = new Map<string, TestCase>();
    const ids = page.items.map((c) => c.test_case_id);
    for (const tc of await services.stores.suiteVersions.getCaseBodies(params.id, params.version, ids)) bodies.set(tc.id, tc);
    return { status: 200, body: { ...page, items: page.items.map((c) => ({ ...c, test_case: bodies.get(c.test_case_id) })) } };
  },
});

export const diffSuiteVersionsRoute = defineRoute({
  name: 'test-suites-versions-diff',
  method: 'GET',
  path: 'v1/test-suites/{id}/versions-diff',
  role: 'reader',
  tag: 'test-suites',
  summary: 'The cases added, removed and changed (different content hash) from version `from` to version `to`',
  params: SuiteParams,
  query: DiffQuery,
  responses: { 200: 'the diff', 404: 'no such suite version' },
  response: SuiteVersionDiffSchema,
  handler: async ({ services, params, query }) => ({
    status: 200,
    body: await diffPublishedVersions(params.id, query.from, query.to, services.stores),
  }),
});

/** Published suite versions: publish (suite-admin, the role that edits suites), list, read, cases, diff. */
export const SUITE_VERSION_ROUTES: readonly RouteDefinition[] = [
  publishSuiteVersionRoute,
  listSuiteVersionsRoute,
  getSuiteVersionRoute,
  listSuiteVersionCasesRoute,
  diffSuiteVersionsRoute,
];
