/**
 * The Durable extension's HTTP API as durable-functions 3.5.0's DurableClient calls it through `rpcBaseUrl`
 * (paths relative to /runtime/webhooks/durabletask/), answered from the embedded TaskHub with the status codes
 * the client expects. Routes and codes: see README.md.
 */
import { managementUrls } from './clientInput.js';
import { DurableHubError, type DurableHubErrorCode } from './errors.js';
import { isRuntimeStatus, type DurableStatus, type RuntimeStatus } from './status.js';
import type { InstanceFilter } from './store.js';
import type { TaskHub } from './taskHub.js';

export interface DurableHttpRequest {
  method: string;
  /** Path after the /runtime/webhooks/durabletask prefix, e.g. "/instances/abc/raiseEvent/Approve". */
  path: string;
  query: URLSearchParams;
  body: string;
}

export interface DurableHttpResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface DurableHttpApiOptions {
  /** Origin the API is reachable at (e.g. http://127.0.0.1:7071); adds management URLs and Location headers. */
  baseUrl?: string;
  /** The durable-task system key, put as `code=` into the management URLs handed out (as Azure does). */
  code?: string;
}

export type DurableHttpApi = (request: DurableHttpRequest) => Promise<DurableHttpResponse>;

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const STATUS_BY_CODE = {
  OrchestratorNotFound: 400,
  InstanceExists: 409,
  InvalidInstanceId: 400,
  InvalidEventName: 400,
  InvalidInput: 400,
} as const satisfies Record<DurableHubErrorCode, number>;
const NOT_SUPPORTED = new Set(['suspend', 'resume', 'rewind', 'restart']);

function reply(status: number, body?: unknown, headers: Record<string, string> = {}): DurableHttpResponse {
  return body === undefined ? { status, headers } : { status, headers: { ...JSON_HEADERS, ...headers }, body };
}

function problem(status: number, message: string): DurableHttpResponse {
  return reply(status, { message });
}

function segments(path: string): string[] | undefined {
  try {
    return path
      .split('/')
      .filter((s) => s.length > 0)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

function parseBody(body: string): { ok: true; value: unknown } | { ok: false } {
  if (body.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false };
  }
}

function flag(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  return value === null ? undefined : value.toLowerCase() === 'true';
}

function time(query: URLSearchParams, name: string): number | undefined | 'invalid' {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? 'invalid' : at;
}

function filterOf(query: URLSearchParams): InstanceFilter | string {
  const from = time(query, 'createdTimeFrom');
  const to = time(query, 'createdTimeTo');
  if (from === 'invalid' || to === 'invalid') return 'createdTimeFrom / createdTimeTo must be ISO-8601 date-times.';
  const statuses = (query.get('runtimeStatus') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const unknown = statuses.filter((s) => !isRuntimeStatus(s));
  if (unknown.length > 0) return `Unknown runtimeStatus value(s): ${unknown.join(', ')}.`;
  const filter: InstanceFilter = { runtimeStatus: statuses as RuntimeStatus[] };
  if (from !== undefined) filter.createdTimeFrom = from;
  if (to !== undefined) filter.createdTimeTo = to;
  return filter;
}

function statusCode(status: DurableStatus, query: URLSearchParams): number {
  if (status.runtimeStatus === 'Pending' || status.runtimeStatus === 'Running' || status.runtimeStatus === 'ContinuedAsNew') return 202;
  if (status.runtimeStatus === 'Failed' && flag(query, 'returnInternalServerErrorOnFailure')) return 500;
  return 200;
}

/** Answers the DurableClient's requests from `hub`. */
export function createDurableHttpApi(hub: TaskHub, options: DurableHttpApiOptions = {}): DurableHttpApi {
  const links = (instanceId: string) =>
    options.baseUrl ? managementUrls(options.baseUrl, hub.taskHubName, instanceId, options.code) : undefined;

  const startNew = (name: string, instanceId: string | undefined, body: string): DurableHttpResponse => {
    const input = parseBody(body);
    if (!input.ok) return problem(400, 'The request body is not valid JSON.');
    const id = hub.startNew(name, { instanceId, input: input.value });
    const payload = links(id);
    return reply(202, payload ?? { id }, payload ? { Location: payload.statusQueryGetUri ?? '' } : {});
  };

  const getStatus = (instanceId: string, query: URLSearchParams): DurableHttpResponse => {
    const status = hub.getStatus(instanceId, {
      showHistory: flag(query, 'showHistory'),
      showHistoryOutput: flag(query, 'showHistoryOutput'),
      showInput: flag(query, 'showInput'),
    });
    if (!status) return problem(404, `No instance with ID '${instanceId}' found.`);
    if (status.history) Object.assign(status, { historyEvents: status.history });
    const code = statusCode(status, query);
    const location = code === 202 ? links(instanceId)?.statusQueryGetUri : undefined;
    return reply(code, status, location ? { Location: location, 'Retry-After': '10' } : {});
  };

  const listOrPurge = (method: string, query: URLSearchParams): DurableHttpResponse => {
    const filter = filterOf(query);
    if (typeof filter === 'string') return problem(400, filter);
    if (method === 'DELETE') {
      const deleted = hub.purgeWhere(filter);
      return deleted > 0 ? reply(200, { instancesDeleted: deleted }) : problem(404, 'No instances matched the filter.');
    }
    const top = Number(query.get('top') ?? '');
    const limit = Number.isInteger(top) && top > 0 ? top : Number.MAX_SAFE_INTEGER;
    return reply(200, hub.listStatuses(filter, { limit, offset: 0 }, { showInput: flag(query, 'showInput') }));
  };

  const instanceOperation = (method: string, parts: string[], request: DurableHttpRequest): DurableHttpResponse => {
    const [, instanceId = '', operation, eventName] = parts;
    if (operation === undefined) {
      if (method === 'GET') return getStatus(instanceId, request.query);
      if (method === 'DELETE') {
        return hub.purge(instanceId) > 0 ? reply(200, { instancesDeleted: 1 }) : problem(404, `No instance with ID '${instanceId}' found.`);
      }
      return problem(405, `${method} is not supported on an instance.`);
    }
    if (method !== 'POST') return problem(405, `${method} is not supported on /${operation}.`);
    if (operation === 'raiseEvent' && eventName !== undefined && parts.length === 4) {
      const data = parseBody(request.body);
      if (!data.ok) return problem(400, 'The event data is not valid JSON.');
      const result = hub.raiseEvent(instanceId, eventName, data.value);
      if (result === 'notFound') return problem(404, `No instance with ID '${instanceId}' found.`);
      return result === 'gone' ? problem(410, `Instance '${instanceId}' has already finished.`) : reply(202);
    }
    if (operation === 'terminate' && parts.length === 3) {
      const result = hub.terminate(instanceId, request.query.get('reason') ?? '');
      if (result === 'notFound') return problem(404, `No instance with ID '${instanceId}' found.`);
      return result === 'alreadyTerminal' ? problem(410, `Instance '${instanceId}' has already finished.`) : reply(202);
    }
    if (NOT_SUPPORTED.has(operation)) return problem(501, `The embedded host does not support ${operation}.`);
    return problem(404, `Unknown durable operation '${operation}'.`);
  };

  const route = (request: DurableHttpRequest): DurableHttpResponse => {
    const method = request.method.toUpperCase();
    const parts = segments(request.path);
    if (!parts) return problem(400, 'The request path is not valid percent-encoding.');
    const hubName = request.query.get('taskHub');
    if (hubName && hubName !== hub.taskHubName)
      return problem(400, `Task hub '${hubName}' is not served here (this host serves '${hub.taskHubName}').`);
    const [resource] = parts;
    if (resource === 'orchestrators' && (parts.length === 2 || parts.length === 3)) {
      if (method !== 'POST') return problem(405, 'Starting an orchestration needs POST.');
      return startNew(parts[1] ?? '', parts[2], request.body);
    }
    if (resource === 'instances' && parts.length === 1) {
      if (method !== 'GET' && method !== 'DELETE') return problem(405, `${method} is not supported on instances.`);
      return listOrPurge(method, request.query);
    }
    if (resource === 'instances') return instanceOperation(method, parts, request);
    if (resource === 'entities') return problem(501, 'The embedded host does not support durable entities.');
    return problem(404, `No durable API route for ${method} ${request.path}.`);
  };

  return async (request) => {
    try {
      return route(request);
    } catch (error) {
      if (error instanceof DurableHubError) return problem(STATUS_BY_CODE[error.code], error.message);
      throw error;
    }
  };
}
