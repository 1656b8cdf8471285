import { z } from 'zod';
import { SuiteVersionSchema, TestCaseSchema, TestSuiteSchema, type TestSuite } from '../../domain/index.js';
import { createBatchSuite, MAX_BATCH_CASES } from '../../runs/index.js';
import { ApiError } from '../problem.js';
import { defineRoute } from '../route.js';
import { PagingQuery, withoutEtag } from './entityRoutes.js';
import { suiteSummary } from './suiteMembers.js';

const BatchSuiteBody = z
  .object({
    /** the file the cases came from (the suite is named after it and the time) */
    source: z.string().min(1).max(300),
    cases: z.array(TestCaseSchema).min(1).max(MAX_BATCH_CASES),
  })
  .strict();

/**
 * `POST /api/v1/test-suites/adhoc`: an ad-hoc suite of cases that are not in the gold set (`evalp submit
 * --batch-file`), published as its version 1; a run of it pins that version. Hidden from the suite list.
 */
export const createBatchSuiteRoute = defineRoute({
  name: 'test-suites-adhoc-create',
  method: 'POST',
  path: 'v1/test-suites/adhoc',
  role: 'runner',
  tag: 'test-suites',
  summary: 'Create an ad-hoc suite from cases not in the gold set (a batch file), published as version 1 for a run to pin',
  body: BatchSuiteBody,
  response: z.object({ suite: TestSuiteSchema, version: SuiteVersionSchema }),
  responses: { 201: 'the ad-hoc suite and its version 1', 400: 'invalid cases (each field named) or a case id twice' },
  handler: async ({ body, services }) => {
    const seen = new Map<string, number>();
    body.cases.forEach((c, i) => {
      const first = seen.get(c.id);
      if (first !== undefined)
        throw new ApiError(400, 'Bad Request', `case id "${c.id}" appears twice`, [
          { path: `body.cases.${i}.id`, message: `the same id as body.cases.${first}.id` },
        ]);
      seen.set(c.id, i);
    });
    const created = await createBatchSuite({ source: body.source, cases: body.cases }, services);
    return { status: 201, headers: { location: `/api/v1/test-suites/${encodeURIComponent(created.suite.id)}` }, body: created };
  },
});

const ListQuery = PagingQuery.extend({
  /** `true`: also the ad-hoc suites of batch files and queries (`adhoc` set); default only curated suites */
  include_adhoc: z.enum(['true', 'false']).default('false'),
  /** `true`: also the suites /api/evaluate jobs own (`owner` set); default left out */
  include_owned: z.enum(['true', 'false']).default('false'),
}).strict();

const PAGE = 1000;

/**
 * `GET /api/v1/test-suites`: curated suites; ad-hoc ones (batch files, queries) only with `include_adhoc=true`, the
 * suites of /api/evaluate jobs only with `include_owned=true`.
 */
export const listSuitesRoute = defineRoute({
  name: 'test-suites-list',
  method: 'GET',
  path: 'v1/test-suites',
  role: 'reader',
  tag: 'test-suites',
  summary:
    'List test suites (each with test_case_count instead of its id list); ad-hoc suites only with include_adhoc=true, job-owned ones with include_owned=true',
  query: ListQuery,
  response: z.object({
    items: z.array(
      z
        .strictObject(TestSuiteSchema.shape)
        .omit({ test_case_ids: true })
        .extend({ test_case_count: z.number().int().nonnegative().nullable() }),
    ),
    total: z.number().int(),
    has_more: z.boolean(),
    limit: z.number().int(),
    offset: z.number().int(),
  }),
  responses: { 200: 'a page of test suites (items, total, has_more, limit, offset)', 400: 'invalid paging' },
  handler: async ({ services, query }) => {
    const all: TestSuite[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await services.stores.suites.list({ limit: PAGE, offset, hideOwned: query.include_owned !== 'true' });
      all.push(...page.items.map((s) => withoutEtag(s)));
      if (!page.has_more) break;
    }
    const shown = query.include_adhoc === 'true' ? all : all.filter((s) => !s.adhoc);
    const window = shown.slice(query.offset, query.offset + query.limit);
    return {
      status: 200,
      body: {
        items: window.map(suiteSummary),
        total: shown.length,
        has_more: query.offset + window.length < shown.length,
        limit: query.limit,
        offset: query.offset,
      },
    };
  },
});
