import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Services } from '../../ports/index.js';
import { TestSuiteSchema, type TestSuite } from '../../domain/index.js';
import { ApiError } from '../problem.js';
import type { RouteDefinition } from '../route.js';
import { referrersIn } from './entityReferences.js';
import { EntityIdSchema, entityRoutes } from './entityRoutes.js';
import { SUITE_CASE_ROUTES } from './suiteCases.js';
import { SUITE_VERSION_ROUTES } from './suiteVersions.js';
import { createBatchSuiteRoute, listSuitesRoute } from './adhocSuites.js';
import { requireTestCases, suiteSummary, uniqueIds } from './suiteMembers.js';

/** A suite as a client sends it: the domain fields without the server's id and timestamps. */
const SuiteFields = z.strictObject(TestSuiteSchema.shape).omit({ id: true, created_at: true, updated_at: true, adhoc: true });
export const CreateSuiteRequestSchema = SuiteFields.extend({ id: EntityIdSchema.optional() });
export const ReplaceSuiteRequestSchema = SuiteFields;
type SuiteFields = z.infer<typeof SuiteFields>;

/** Validates a suite (domain rules: 400) and, for a static one, that every listed case exists (422). */
async function validSuite(fields: SuiteFields, id: string, createdAt: string, services: Services): Promise<TestSuite> {
  if (fields.kind === 'dynamic' && fields.test_case_ids.length > 0) {
    throw new ApiError(400, 'Bad Request', 'a dynamic suite takes its cases from its filter or query; leave test_case_ids out', [
      { path: 'body.test_case_ids', message: 'not allowed for kind "dynamic"' },
    ]);
  }
  const suite = TestSuiteSchema.parse({
    ...fields,
    id,
    test_case_ids: uniqueIds(fields.test_case_ids),
    created_at: createdAt,
    updated_at: services.clock.now().toISOString(),
  });
  if (suite.kind === 'static') await requireTestCases(services.stores.testCases, fields.test_case_ids, 'test_case_ids');
  return suite;
}

const crud = entityRoutes({
  name: 'test-suites',
  tag: 'test-suites',
  noun: 'test suite',
  collection: 'v1/test-suites',
  item: '{id}',
  params: z.object({ id: z.string().min(1) }),
  idOf: (p) => p.id,
  pathOf: (s) => `v1/test-suites/${encodeURIComponent(s.id)}`,
  role: 'suite-admin',
  ownable: true,
  store: (services: Services) => services.stores.suites,
  createBody: CreateSuiteRequestSchema,
  replaceBody: ReplaceSuiteRequestSchema,
  toCreate: async ({ id, ...fields }, { services }) => validSuite(fields, id ?? randomUUID(), services.clock.now().toISOString(), services),
  toReplace: async (fields, current, _params, { services }) => ({
    ...(await validSuite(fields, current.id, current.created_at, services)),
    ...(current.adhoc ? { adhoc: current.adhoc } : {}),
  }),
  referrersOf: (suite, services) => referrersIn(services.stores.clients, 'client', (c) => c.suite_ids.includes(suite.id)),
  listView: suiteSummary,
  schema: TestSuiteSchema,
  listItemSchema: z
    .strictObject(TestSuiteSchema.shape)
    .omit({ test_case_ids: true })
    .extend({ test_case_count: z.number().int().nonnegative().nullable() }),
  summaries: {
    list: 'List test suites (each with test_case_count instead of its id list)',
    get: 'A test suite: static (test_case_ids) or dynamic (filter)',
    create: 'Create a static or dynamic test suite (unknown case ids: 422 naming them)',
    replace: 'Replace a test suite (If-Match for optimistic concurrency)',
    delete: 'Delete a test suite (409 while a client uses it)',
  },
});

/** Test-suite routes: CRUD plus the resolved cases and the member list of a static suite. Role suite-admin for changes. */
export const SUITE_ROUTES: readonly RouteDefinition[] = [
  // the list hides ad-hoc suites (batch files, queries) unless include_adhoc=true
  listSuitesRoute,
  createBatchSuiteRoute,
  crud.create,
  crud.get,
  crud.replace,
  crud.remove,
  ...SUITE_CASE_ROUTES,
  ...SUITE_VERSION_ROUTES,
];
