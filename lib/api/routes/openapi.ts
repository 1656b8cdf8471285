import { z } from 'zod';
import { buildOpenApiDocument } from '../openapi/buildOpenApiDocument.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const VERSION = '0.1.0';

/**
 * `GET /api/openapi.json`: the document of every route of `table` (the route table, which lists this route, so it is
 * passed in rather than imported), generated on first request. Anonymous, like health: it holds no data, and API
 * Management imports it by URL.
 */
export const openApiRoutes = (table: () => readonly RouteDefinition[]): readonly RouteDefinition[] => [
  defineRoute({
    name: 'openapi',
    method: 'GET',
    path: 'openapi.json',
    role: 'anonymous',
    tag: 'platform',
    summary: 'The OpenAPI 3.1 document of this API, generated from its route table',
    query: z.object({}).passthrough(),
    responses: { 200: 'the OpenAPI 3.1 document' },
    handler: async ({ url }) => ({ status: 200, body: openApiDocument(table(), url.origin) }),
  }),
];

let cached: Record<string, unknown> | undefined;

/** Built once; only the server URL differs per request (a cache keyed by the Host header would grow without bound). */
function openApiDocument(routes: readonly RouteDefinition[], origin: string): Record<string, unknown> {
  cached ??= buildOpenApiDocument(routes, {
    title: 'EvalPlatform management API',
    version: VERSION,
    description: 'Gold sets, targets, clients, runs, comparisons and alerts of EvalPlatform. Errors are application/problem+json.',
  });
  const { openapi, info, jsonSchemaDialect, ...rest } = cached;
  return { openapi, info, jsonSchemaDialect, servers: [{ url: origin }], ...rest };
}
