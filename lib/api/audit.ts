import { randomUUID } from 'node:crypto';
import type { AuditActor, AuditRecord, Principal } from '../domain/index.js';
import type { ApiResult, RouteDefinition } from './route.js';

const DEFAULT_ACTIONS: Record<string, string> = { POST: 'create', PUT: 'replace', PATCH: 'update', DELETE: 'delete' };

/** The request id of a call: the caller's `x-request-id` or `x-ms-client-request-id` (up to 200 characters), else a new UUID. */
export function requestIdOf(headers: { get(name: string): string | null }): string {
  const given = (headers.get('x-request-id') ?? headers.get('x-ms-client-request-id') ?? '').trim();
  return given && given.length <= 200 && /^[\x21-\x7e]+$/.test(given) ? given : randomUUID();
}

export function actorOf(principal: Principal): AuditActor {
  return { id: principal.id, name: principal.name, kind: principal.kind };
}

/**
 * The audit record of a request, or undefined when it is not a change: a GET, an anonymous route, or a
 * failure (status 400 and above). What is recorded is derived from the route so no route can forget it:
 * - `entity_type`: the path's first literal segment after the version (`v1/runs/{id}/retry-failures` -> `runs`,
 *   `evaluate` -> `evaluate`);
 * - `entity_id`: the route's `id` parameter, else its parameters joined by `/` (`{name}/versions/{version}` ->
 *   `retail/1.0`), else the `id` or `job_id` of the answer (the created entity);
 * - `action`: the route name without the entity prefix (`runs-cancel` -> `cancel`, `keys-revoke` -> `revoke`),
 *   else `create`/`replace`/`update`/`delete` by method.
 * Bodies, headers and secrets are never read into it.
 */
export function auditRecordOf(input: {
  route: Pick<RouteDefinition, 'name' | 'method' | 'path' | 'role'>;
  principal: Principal | undefined;
  params: unknown;
  result: ApiResult;
  requestId: string;
  at: string;
}): AuditRecord | undefined {
  const { route, principal, result } = input;
  if (route.method === 'GET' || !principal || result.status >= 400) return undefined;
  const entityType = route.path.split('/').find((segment) => segment !== '' && !/^v\d+$/.test(segment) && !segment.startsWith('{')) ?? null;
  const prefix = entityType ? `${entityType}-` : undefined;
  return {
    id: randomUUID(),
    at: input.at,
    actor: actorOf(principal),
    method: route.method,
    route: route.name,
    action:
      prefix && route.name.startsWith(prefix) && route.name.length > prefix.length
        ? route.name.slice(prefix.length)
        : DEFAULT_ACTIONS[route.method]!,
    entity_type: entityType,
    entity_id: entityIdOf(input.params, result.body),
    status: result.status,
    request_id: input.requestId,
  };
}

function entityIdOf(params: unknown, body: unknown): string | null {
  if (params && typeof params === 'object') {
    const values = Object.entries(params as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '',
    );
    const id = values.find(([k]) => k === 'id');
    if (id) return id[1];
    if (values.length) return values.map(([, v]) => v).join('/');
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    for (const key of ['id', 'job_id']) if (typeof b[key] === 'string' && b[key] !== '') return b[key] as string;
  }
  return null;
}

/**
 * The audit record of a key change made outside the API, straight on the platform's database: `evalp keys`
 * without --url, and `evalp start`'s first admin key. Method `CLI`; status what the API would have answered.
 */
export function localKeyAuditRecord(input: { actor: AuditActor; action: 'create' | 'revoke'; keyId: string; at: string }): AuditRecord {
  return {
    id: randomUUID(),
    at: input.at,
    actor: input.actor,
    method: 'CLI',
    route: `keys-${input.action}`,
    action: input.action,
    entity_type: 'keys',
    entity_id: input.keyId,
    status: input.action === 'create' ? 201 : 200,
    request_id: null,
  };
}
