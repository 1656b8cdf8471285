import { TestCaseSchema } from '../../../domain/index.js';
import { defineRoute } from '../../route.js';
import { pageSchemaOf } from '../../schemas.js';
import { PagingQuery } from '../entityRoutes.js';
import { filterQuery } from './filterQuery.js';

export const listTestCasesRoute = defineRoute({
  name: 'test-cases-list',
  method: 'GET',
  path: 'v1/test-cases',
  role: 'reader',
  tag: 'test-cases',
  summary: 'List test cases in store order (first insertion), filtered by tags, complexity, api_version, category and full text',
  query: filterQuery(PagingQuery.shape),
  response: pageSchemaOf(TestCaseSchema),
  responses: { 200: 'a page of cases (items, total, has_more, limit, offset)', 400: 'invalid filter or paging' },
  handler: async ({ services, query }) => {
    const { filter, limit, offset } = query;
    const page = await services.stores.testCases.listTestCases(filter, { limit, offset });
    return { status: 200, body: { ...page, items: page.items.map(({ _etag, ...testCase }) => testCase) } };
  },
});
