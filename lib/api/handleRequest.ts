import type { Services } from '../app/services.js';
import { authenticateApiKey, presentedKey } from './apiKeys.js';
import { ApiError, toProblem } from './problem.js';
import { allows } from './roles.js';
import type { ApiResult, RouteDefinition, RunOrchestrations } from './route.js';

/** The parts of an HTTP request the API needs (the @azure/functions HttpRequest fits). */
export interface ApiRequest {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
  params: Record<string, string>;
  text(): Promise<string>;
}

const MAX_JSON_BODY = 10 * 1024 * 1024;

/**
 * Runs one route: authenticate (401), authorise (403), validate params, query and body (400 naming the field),
 * call the handler, map every error to problem+json. Never returns a stack trace.
 */
export async function handleRequest(route: RouteDefinition, request: ApiRequest, services: Services, orchestrations: RunOrchestrations, log?: (msg: string) => void): Promise<ApiResult> {
  const url = new URL(request.url);
  try {
    const principal = route.role === 'anonymous' ? undefined : await authenticateApiKey(services.apiKeys, presentedKey(request.headers));
    if (route.role !== 'anonymous') {
      if (!principal) throw new ApiError(401, 'Unauthorized', 'an API key is required: send it as "Authorization: Bearer <key>" or "x-api-key: <key>"', [], { 'www-authenticate': 'Bearer' });
      if (!allows(principal, route.role)) throw new ApiError(403, 'Forbidden', `this route needs the "${route.role}" role; the key "${principal.name}" has ${principal.roles.join(', ') || 'none'}`);
    }
    const params = parseWith(route.params, request.params, 'params');
    const query = parseWith(route.query, Object.fromEntries(url.searchParams), 'query');
    let body: unknown;
    if (route.body) {
      const type = request.headers.get('content-type') ?? '';
      const text = await request.text();
      if (text.length > MAX_JSON_BODY) throw new ApiError(413, 'Payload Too Large', `the body is larger than ${MAX_JSON_BODY} bytes`);
      if (text.trim() !== '' && !/json/i.test(type)) throw new ApiError(415, 'Unsupported Media Type', 'send the body as application/json');
      let json: unknown = {};
      if (text.trim() !== '') {
        try {
          json = JSON.parse(text);
        } catch (err) {
          throw new ApiError(400, 'Bad Request', `the body is not valid JSON: ${(err as Error).message}`, [{ path: 'body', message: 'not valid JSON' }]);
        }
      }
      body = parseWith(route.body, json, 'body');
    }
    return await route.handler({ params, query, body, principal, services, orchestrations, url, headers: request.headers });
  } catch (err) {
    const problem = toProblem(err, url.pathname);
    if (problem.status >= 500) log?.(`${route.name}: ${(err as Error).stack ?? String(err)}`);
    return problem;
  }
}

function parseWith(schema: RouteDefinition['params'], value: unknown, location: string): unknown {
  if (!schema) return {};
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const errors = r.error.issues.map((i) => ({ path: [location, ...i.path.map(String)].join('.'), message: i.message }));
  throw new ApiError(400, 'Bad Request', `${errors.length} invalid field(s): ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
}
