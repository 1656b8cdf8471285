import type { RouteDefinition } from '../route.js';
import { jsonSchemaOf, objectProperties, type JsonSchema, type SchemaComponents } from './jsonSchemaOf.js';

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  /** server URL, e.g. `https://evalp.example.com` (the document's paths start with /api) */
  serverUrl?: string;
}

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem details; `errors` names each failing field',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } }, required: ['path', 'message'] },
    },
  },
  required: ['type', 'title', 'status', 'detail'],
};

/** Responses every authenticated route can give, whatever its own table says. */
const COMMON_ERRORS: Record<number, string> = {
  401: 'no valid API key or Entra ID token',
  403: 'the caller lacks the role this route needs',
  429: 'rate limit exceeded; retry after the Retry-After header',
};

/** `v1/runs/{id}` -> `/api/v1/runs/{id}` (route constraints such as `{id:int}` dropped). */
export function openApiPath(routePath: string): string {
  return `/api/${routePath}`.replace(/\{(\w+)(?::[^}]*)?\??\}/g, '{$1}');
}

/**
 * The OpenAPI 3.1 document of a route table, generated from each row's zod schemas, roles and response table
 * (never written by hand). API Management imports it; `GET /api/openapi.json` serves it.
 */
export function buildOpenApiDocument(routes: readonly RouteDefinition[], info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: SchemaComponents = new Map();
  for (const route of routes) {
    const path = openApiPath(route.path);
    (paths[path] ??= {})[route.method.toLowerCase()] = operationOf(route, components);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    tags: [...new Set(routes.map((r) => r.tag))].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: { Problem: PROBLEM_SCHEMA, ...Object.fromEntries([...components].sort(([a], [b]) => a.localeCompare(b))) },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'an EvalPlatform API key (`evalp_<id>_<secret>`, created with `evalp keys create`); `x-api-key: <key>` also works',
        },
        entraId: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'a Microsoft Entra ID access token whose `roles` claim carries the EvalPlatform roles',
        },
      },
    },
  };
}

function operationOf(route: RouteDefinition, components: SchemaComponents): Record<string, unknown> {
  const parameters = [...parametersOf(route, 'path', components), ...parametersOf(route, 'query', components)];
  const responses: Record<string, unknown> = {};
  const table = route.role === 'anonymous' ? route.responses : { ...COMMON_ERRORS, ...route.responses };
  if (route.body || route.rawBody) table[400] ??= 'invalid body';
  if (route.rawBody) {
    table[413] ??= 'the body is larger than this route accepts';
    table[415] ??= `the body is not one of ${route.rawBody.mediaTypes.join(', ')}`;
  }
  for (const [status, description] of Object.entries(table).sort(([a], [b]) => Number(a) - Number(b))) {
    responses[status] = responseOf(route, Number(status), description, components);
  }
  return {
    operationId: route.name,
    summary: route.summary,
    tags: [route.tag],
    ...(route.role === 'anonymous' ? { security: [] } : { security: [{ apiKey: [] }, { entraId: [] }], 'x-evalp-role': route.role }),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body || route.rawBody ? { requestBody: requestBodyOf(route, components) } : {}),
    responses,
  };
}

function parametersOf(route: RouteDefinition, location: 'path' | 'query', components: SchemaComponents): unknown[] {
  const schema = location === 'path' ? route.params : route.query;
  const names = location === 'path' ? [...route.path.matchAll(/\{(\w+)/g)].map((m) => m[1]!) : [];
  if (!schema) return names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const { properties, required } = objectProperties(schema, components);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function requestBodyOf(route: RouteDefinition, components: SchemaComponents): Record<string, unknown> {
  if (route.rawBody) {
    // the route parses the body itself (imports): its media types, as text or multipart parts
    const content = Object.fromEntries(
      route.rawBody.mediaTypes.map((type) => [
        type,
        { schema: type === 'multipart/form-data' ? { type: 'object', additionalProperties: { type: 'string' } } : { type: 'string' } },
      ]),
    );
    return { required: true, content };
  }
  const content: Record<string, unknown> = { 'application/json': { schema: jsonSchemaOf(route.body!, 'input', components) } };
  return { required: true, content };
}

function responseOf(route: RouteDefinition, status: number, description: string, components: SchemaComponents): Record<string, unknown> {
  if (status >= 400) return { description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
  if (status === 204) return { description };
  const json = { schema: route.response ? jsonSchemaOf(route.response, 'output', components) : {} };
  if (!route.responseMediaTypes) return { description, content: { 'application/json': json } };
  const content = Object.fromEntries(
    route.responseMediaTypes.map((type) => [type, /json$/.test(type) ? json : { schema: { type: 'string' } }]),
  );
  return { description, content };
}
