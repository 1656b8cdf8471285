import type { Services } from '../ports/index.js';
import { organizationOfPrincipal, scopedServices } from '../tenancy/index.js';
import { apiAuthenticatorFor, recordAudit } from './apiSecurity.js';
import { requestIdOf } from './audit.js';
import { ApiError, toProblem } from './problem.js';
import { isJsonMediaType, mediaTypeOf } from './jsonMediaType.js';
import type { ApiResult, RawBody, RouteDefinition, RunOrchestrations } from './route.js';

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
 * Runs one route: authenticate (401), rate-limit (429), authorise (403), scope the services to the caller's
 * organization (lib/tenancy: another organization's ids read as 404), validate params, query and body (400
 * naming the field), call the handler, audit a successful change, map every error to problem+json. Every answer
 * carries `x-request-id` (the caller's, else a new one). Never returns a stack trace.
 */
export async function handleRequest(
  route: RouteDefinition,
  request: ApiRequest,
  services: Services,
  orchestrations: RunOrchestrations,
  log?: (msg: string) => void,
): Promise<ApiResult> {
  const url = new URL(request.url);
  const requestId = requestIdOf(request.headers);
  try {
    // 401 (no or bad credential), 429 (the caller's rate limit), 403 (missing role): see authenticate.ts
    const principal = route.role === 'anonymous' ? undefined : await apiAuthenticatorFor(services).authorize(route.role, request.headers);
    // the one place a request gets its organization: every store the handler (and the audit) reaches is scoped to it
    const scoped = principal ? scopedServices(services, organizationOfPrincipal(principal)) : services;
    const params = parseWith(route.params, request.params, 'params');
    const query = parseWith(route.query, Object.fromEntries(url.searchParams), 'query');
    let body: unknown;
    let rawBody: RawBody | undefined;
    if (route.rawBody) {
      rawBody = await readRawBody(route.rawBody, request);
    } else if (route.body) {
      const type = request.headers.get('content-type') ?? '';
      const text = await readText(request, MAX_JSON_BODY);
      const mediaType = mediaTypeOf(type);
      if (text.trim() !== '' && !isJsonMediaType(mediaType, route.jsonMediaTypes)) {
        throw new ApiError(
          415,
          'Unsupported Media Type',
          `send the body as application/json${mediaType ? ` (got ${mediaType})` : ' (no Content-Type was given)'}`,
          [{ path: 'headers.content-type', message: 'application/json or a +json media type' }],
        );
      }
      let json: unknown = {};
      if (text.trim() !== '') {
        try {
          json = JSON.parse(text);
        } catch (err) {
          throw new ApiError(400, 'Bad Request', `the body is not valid JSON: ${(err as Error).message}`, [
            { path: 'body', message: 'not valid JSON' },
          ]);
        }
      }
      body = parseWith(route.body, json, 'body');
    }
    const result = await route.handler({
      params,
      query,
      body,
      principal,
      services: scoped,
      orchestrations,
      url,
      headers: request.headers,
      ...(rawBody ? { rawBody } : {}),
    });
    // every successful change is audited here, so no route can forget it (audit.ts says what is recorded)
    await recordAudit(scoped, { route, principal, params, result, requestId }, log);
    return { ...result, headers: { ...result.headers, 'x-request-id': requestId } };
  } catch (err) {
    const problem = toProblem(err, url.pathname);
    if (problem.status >= 500) log?.(`${route.name}: ${(err as Error).stack ?? String(err)}`);
    return { ...problem, headers: { ...problem.headers, 'x-request-id': requestId } };
  }
}

/** The body of a `rawBody` route: 415 for a media type it does not accept, 413 over its size limit. */
async function readRawBody(spec: NonNullable<RouteDefinition['rawBody']>, request: ApiRequest): Promise<RawBody> {
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  if (!spec.mediaTypes.includes(mediaType)) {
    throw new ApiError(
      415,
      'Unsupported Media Type',
      `send the body as ${spec.mediaTypes.join(', ')}${mediaType ? ` (got ${mediaType})` : ' (no Content-Type was given)'}`,
      [{ path: 'headers.content-type', message: `one of ${spec.mediaTypes.join(', ')}` }],
    );
  }
  const text = await readText(request, spec.maxBytes ?? MAX_JSON_BODY);
  return { text, mediaType, contentType };
}

/** The body as text; 413 when it is over `maxBytes` (refused before reading when Content-Length says so). */
async function readText(request: ApiRequest, maxBytes: number): Promise<string> {
  const tooLarge = (): ApiError => new ApiError(413, 'Payload Too Large', `the body is larger than ${maxBytes} bytes`);
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw tooLarge();
  const text = await request.text();
  if (text.length > maxBytes || Buffer.byteLength(text) > maxBytes) throw tooLarge();
  return text;
}

function parseWith(schema: RouteDefinition['params'], value: unknown, location: string): unknown {
  if (!schema) return {};
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const errors = r.error.issues.map((i) => ({ path: [location, ...i.path.map(String)].join('.'), message: i.message }));
  throw new ApiError(
    400,
    'Bad Request',
    `${errors.length} invalid field(s): ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
    errors,
  );
}
