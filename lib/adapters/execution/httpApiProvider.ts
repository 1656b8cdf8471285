import type { JsonValue, ToolCall, ToolCatalog, ToolDefinition } from '../../domain/index.js';
import { type ApiProvider, type ApiResponse, elapsedMs, type ExecuteContext, ExecutionConfigurationError } from '../../ports/index.js';
import { buildHttpRequest, compileHttpRoute, type HttpRequestPlan, type HttpRoute } from './httpRoute.js';
import { requestSignal } from './requestSignal.js';

export interface HttpApiProviderOptions {
  /** prefix of every tool's `http.path`, e.g. `https://api.example.com/v1` */
  baseUrl: string;
  catalog: ToolCatalog;
  /** per-call timeout (default 30 s); ExecuteContext.timeoutInMs overrides it */
  timeoutInMs?: number;
  /** sent with every request (e.g. an API key resolved from a secret reference) */
  headers?: Record<string, string>;
  /** defaults to the global fetch */
  fetch?: typeof globalThis.fetch;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
const SNIPPET_CHARS = 200;

/**
 * Calls the live API through each tool's `http` mapping (see httpRoute.ts). Failures are data: network errors,
 * timeouts, non-2xx statuses and non-JSON bodies come back as `execution_failed`; an empty 2xx body is `null`.
 * Throws ExecutionConfigurationError for a tool in the catalog without an `http` mapping, and the abort reason
 * when the caller's abortSignal fires.
 */
export class HttpApiProvider implements ApiProvider {
  readonly kind = 'http' as const;
  private readonly baseUrl: string;
  private readonly tools: ReadonlyMap<string, ToolDefinition>;
  private readonly routes = new Map<string, HttpRoute>();
  private readonly catalogName: string;
  private readonly timeoutInMs: number;
  private readonly headers: Record<string, string>;
  private readonly fetch: typeof globalThis.fetch;

  constructor(options: HttpApiProviderOptions) {
    if (!URL.canParse(options.baseUrl)) {
      throw new ExecutionConfigurationError(`http provider: base URL "${options.baseUrl}" is not an absolute URL`);
    }
    const timeoutInMs = options.timeoutInMs ?? DEFAULT_HTTP_TIMEOUT_MS;
    if (!(timeoutInMs > 0)) throw new ExecutionConfigurationError(`http provider: timeoutInMs must be positive, got ${timeoutInMs}`);
    this.baseUrl = options.baseUrl;
    this.tools = new Map(options.catalog.tools.map((tool) => [tool.name, tool]));
    // Fail fast on mappings that can never work; tools without a mapping fail only when called.
    for (const tool of options.catalog.tools) if (tool.http) this.routes.set(tool.name, compileHttpRoute(tool));
    this.catalogName = `${options.catalog.name}@${options.catalog.tool_schema_version}`;
    this.timeoutInMs = timeoutInMs;
    this.headers = { accept: 'application/json', ...options.headers };
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async execute(call: ToolCall, context: ExecuteContext): Promise<ApiResponse> {
    context.abortSignal?.throwIfAborted();
    const started = performance.now();
    const fail = (message: string, status?: number): ApiResponse => ({
      ok: false,
      errorCode: 'execution_failed',
      message,
      ...(status === undefined ? {} : { status }),
      durationMs: elapsedMs(started),
    });
    const route = this.routeFor(call.tool_name);
    if (!route) return fail(`tool "${call.tool_name}" is not in catalog ${this.catalogName}, so it has no HTTP mapping`);
    const built = buildHttpRequest(this.baseUrl, route, call.arguments);
    if (!built.ok) return fail(built.message);
    const { request } = built;
    const label = `${request.method} ${request.url}`;
    // the tool's own timeout (its catalog entry) overrides the run's per-call and provider timeouts
    const timeoutInMs = route.timeoutInMs ?? context.timeoutInMs ?? this.timeoutInMs;
    const abort = requestSignal(timeoutInMs, context.abortSignal);
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(request.url, this.init(request, abort.signal));
      text = await response.text();
    } catch (error) {
      if (context.abortSignal?.aborted) throw context.abortSignal.reason;
      if (abort.timedOut()) {
        const whose = route.timeoutInMs === undefined ? '' : ` (the timeout of tool ${call.tool_name})`;
        return fail(`${label} did not answer within ${timeoutInMs} ms${whose}`);
      }
      return fail(`${label} failed: ${describeError(error)}`);
    } finally {
      abort.dispose();
    }
    if (!response.ok) return fail(`${label} returned HTTP ${response.status}: ${snippet(text)}`, response.status);
    const data = parseJson(text);
    if (data === undefined) {
      const type = response.headers.get('content-type') ?? 'no content-type';
      return fail(`${label} returned a body that is not JSON (${type}): ${snippet(text)}`, response.status);
    }
    return { ok: true, status: response.status, data, durationMs: elapsedMs(started) };
  }

  private routeFor(toolName: string): HttpRoute | undefined {
    const route = this.routes.get(toolName);
    if (route) return route;
    const tool = this.tools.get(toolName);
    return tool ? compileHttpRoute(tool) : undefined; // a tool without a mapping throws here
  }

  private init(request: HttpRequestPlan, signal: AbortSignal): RequestInit {
    if (request.body === undefined) return { method: request.method, headers: this.headers, signal };
    return { method: request.method, headers: { 'content-type': 'application/json', ...this.headers }, body: request.body, signal };
  }
}

/** The parsed body; `null` for an empty body (204, or 200 with nothing); undefined when it is not JSON. */
function parseJson(text: string): JsonValue | undefined {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat;
}

/** fetch's TypeError says only "fetch failed"; the useful part (ECONNREFUSED, ENOTFOUND) is in its cause. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return `${error.message} (${typeof code === 'string' ? `${code}: ` : ''}${cause.message})`;
  }
  return error.message;
}
