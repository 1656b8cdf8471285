import type { JsonValue, ToolDefinition } from '../../domain/index.js';
import { ExecutionConfigurationError } from '../../ports/index.js';

type HttpMapping = NonNullable<ToolDefinition['http']>;
export type HttpMethod = HttpMapping['method'];

/** A tool's HTTP mapping with its defaults applied. `'rest'` = every argument not used elsewhere. */
export interface HttpRoute {
  toolName: string;
  method: HttpMethod;
  path: string;
  pathParams: string[];
  query: string[] | 'rest';
  body: string[] | 'rest';
  /** whether a JSON body is sent even when no argument goes into it (`{}`) */
  alwaysSendBody: boolean;
  /** the tool's own timeout (`http.timeout_ms`, else the tool's `timeout_ms`), overriding the run's */
  timeoutInMs?: number;
}

/** The request for one call, ready for fetch. */
export interface HttpRequestPlan {
  method: HttpMethod;
  url: string;
  /** JSON text, when the request has a body */
  body?: string;
}

export type BuildRequestResult = { ok: true; request: HttpRequestPlan } | { ok: false; message: string };

const PATH_PARAM = /\{([^{}]+)\}/g;
const BODY_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Applies the defaults of a tool's `http` mapping. The default side (the query for GET/DELETE, the JSON body for
 * POST/PUT/PATCH) gets, unless it has its own list, every argument not used in the path and not listed for the
 * other side; the other side gets only what it lists. Arguments in no list are not sent. Throws ExecutionConfigurationError for a tool without a mapping or a mapping that cannot work.
 */
export function compileHttpRoute(tool: ToolDefinition): HttpRoute {
  const mapping = tool.http;
  if (!mapping) {
    throw new ExecutionConfigurationError(`tool "${tool.name}" has no "http" mapping in its catalog, so the http provider cannot call it`);
  }
  const pathParams = [...mapping.path.matchAll(PATH_PARAM)].map((m) => m[1] ?? '');
  const sendsBody = BODY_METHODS.has(mapping.method);
  if (mapping.method === 'GET' && mapping.body && mapping.body.length > 0) {
    throw new ExecutionConfigurationError(
      `tool "${tool.name}": a GET request cannot have a body, but http.body lists ${mapping.body.join(', ')}`,
    );
  }
  const both = (mapping.query ?? []).filter((name) => mapping.body?.includes(name));
  if (both.length > 0) {
    throw new ExecutionConfigurationError(`tool "${tool.name}": argument(s) ${both.join(', ')} listed in both http.query and http.body`);
  }
  return {
    toolName: tool.name,
    method: mapping.method,
    path: mapping.path.startsWith('/') ? mapping.path : `/${mapping.path}`,
    pathParams,
    query: mapping.query ?? (sendsBody ? [] : 'rest'),
    body: mapping.body ?? (sendsBody ? 'rest' : []),
    alwaysSendBody: sendsBody,
    ...(timeoutOf(tool) === undefined ? {} : { timeoutInMs: timeoutOf(tool) }),
  };
}

const timeoutOf = (tool: ToolDefinition): number | undefined => tool.http?.timeout_ms ?? tool.timeout_ms;

/**
 * Builds the request of one call. Path parameters are URL-encoded (objects and arrays as JSON text); query
 * values are strings, arrays become repeated keys, objects (and arrays inside arrays) JSON text, and null values are left out. Fails
 * (as data) when the call lacks an argument the path needs.
 */
export function buildHttpRequest(baseUrl: string, route: HttpRoute, args: Record<string, JsonValue>): BuildRequestResult {
  let missing: string | undefined;
  const path = route.path.replace(PATH_PARAM, (_, name: string) => {
    const value = args[name];
    if (value === undefined || value === null) {
      missing ??= name;
      return '';
    }
    return encodeURIComponent(typeof value === 'object' ? JSON.stringify(value) : String(value));
  });
  if (missing !== undefined) {
    return {
      ok: false,
      message: `tool "${route.toolName}" needs argument "${missing}" for its path ${route.path}, but the call does not give it`,
    };
  }
  const queryNames = namesFor(route.query, route.body, route.pathParams, args);
  const bodyNames = namesFor(route.body, route.query, route.pathParams, args);
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
  for (const name of queryNames) appendQuery(url.searchParams, name, args[name]);
  const request: HttpRequestPlan = { method: route.method, url: url.toString() };
  if (route.alwaysSendBody || bodyNames.length > 0) {
    const body: Record<string, JsonValue> = {};
    for (const name of bodyNames) {
      const value = args[name];
      if (value !== undefined) body[name] = value;
    }
    request.body = JSON.stringify(body);
  }
  return { ok: true, request };
}

/** The argument names one side receives: its explicit list, or (sorted) every argument not used elsewhere. */
function namesFor(side: string[] | 'rest', other: string[] | 'rest', pathParams: string[], args: Record<string, JsonValue>): string[] {
  if (side !== 'rest') return side;
  const taken = new Set([...pathParams, ...(other === 'rest' ? [] : other)]);
  return Object.keys(args)
    .filter((name) => !taken.has(name))
    .sort();
}

function appendQuery(params: URLSearchParams, name: string, value: JsonValue | undefined): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) if (item !== null) params.append(name, queryText(item));
    return;
  }
  params.append(name, queryText(value));
}

function queryText(value: JsonValue): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
