import { z } from 'zod';
import { buildOpenApiDocument } from '../openapi/buildOpenApiDocument.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const VERSION = '0.1.0';

/**
 * `GET /api/openapi.json`: the document of every route, generated from the route table on first request (the
 * table imports this file, so it is read lazily). Anonymous, like health: it holds no data, and API Management
 * imports it by URL.
 */
export const openApiRoute = defineRoute({
  name: 'openapi',
  method: 'GET',
  path: 'openapi.json',
  role: 'anonymous',
  tag: 'platform',
  summary: 'The OpenAPI 3.1 document of this API, generated from its route table',
  query: z.object({}).passthrough(),
  responses: { 200: 'the OpenAPI 3.1 document' },
  handler: async ({ url }) => {
    const { ROUTES } = await import('../routeTable.js');
    return { status: 200, body: openApiDocument(ROUTES, url.origin) };
  },
});

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

export const OPENAPI_ROUTES: readonly RouteDefinition[] = [openApiRoute];
