import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { silentLogger, type HostLogger } from '../logger.js';
import type { FunctionRegistration, InvokeFunction } from '../registration.js';
import { isAuthorized, type HostKeys } from './auth.js';
import { PROBLEM_CONTENT_TYPE, problem, type ProblemDetails } from './problem.js';
import { readBody } from './readBody.js';
import { toFunctionsRequest } from './requestMapping.js';
import { InvalidHttpResultError, toWireResponse, type WireResponse } from './responseMapping.js';
import { createRouter, splitPath, toHttpRoute, type HttpRoute, type RouteResult } from './router.js';

/** A request handed to a mounted API (e.g. the durable task hub's webhooks), path relative to the mount prefix. */
export interface MountRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}

export interface MountResponse {
  status: number;
  headers?: Record<string, string>;
  /** A string is sent as is; any other defined value as JSON. */
  body?: unknown;
}

export interface HttpMount {
  /** Absolute path prefix, e.g. '/runtime/webhooks/durabletask'. */
  prefix: string;
  /**
   * When set, every request must present this key (or the admin key) in the `code` query parameter, the
   * `x-functions-key` header or as the password of `Authorization: Basic` (the durable client's rpcBaseUrl), else 401 (as Azure's system keys protect `/runtime/webhooks/...`).
   */
  key?: string;
  handle(request: MountRequest): Promise<MountResponse>;
}

export interface HttpTriggerServerOptions {
  keys: HostKeys;
  port?: number;
  hostname?: string;
  /** host.json extensions.http.routePrefix; default 'api'. */
  routePrefix?: string;
  /** Largest accepted request body; default 100 MiB (Azure Functions' HTTP request limit). */
  maxRequestBodyBytes?: number;
  /** Time from arrival to response before the host answers 504; default 230 000 ms (Azure's load balancer). */
  requestTimeoutInMs?: number;
  mounts?: HttpMount[];
  logger?: HostLogger;
}

/** As Azure Functions (host.json `maxRequestBodySize` 104857600): routes that want less check it themselves (lib/api: 10 MiB for JSON bodies). */
export const DEFAULT_MAX_REQUEST_BODY_BYTES = 100 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 230_000;

class RequestTimeoutError extends Error {}

function sendWire(res: ServerResponse, wire: WireResponse, closing: boolean): void {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of wire.headers) grouped.set(name, [...(grouped.get(name) ?? []), value]);
  for (const [name, values] of grouped) res.setHeader(name, values.length === 1 ? (values[0] as string) : values);
  res.setHeader('content-length', wire.body.length);
  if (closing) res.setHeader('connection', 'close');
  res.statusCode = wire.status;
  res.end(wire.body);
}

/**
 * Sends a streamed body chunked, honouring backpressure; stops when the client goes away. A stream that fails
 * after the headers are out can only be cut short: the connection is destroyed, so the client sees an incomplete
 * response rather than a complete-looking one.
 */
async function sendStream(
  res: ServerResponse,
  wire: WireResponse,
  stream: AsyncIterable<unknown>,
  closing: boolean,
  onError: (error: unknown) => void,
): Promise<void> {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of wire.headers) grouped.set(name, [...(grouped.get(name) ?? []), value]);
  for (const [name, values] of grouped) res.setHeader(name, values.length === 1 ? (values[0] as string) : values);
  if (closing) res.setHeader('connection', 'close');
  res.statusCode = wire.status;
  try {
    for await (const chunk of stream) {
      if (res.destroyed) return;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
      if (!res.write(bytes))
        await new Promise<void>((resolve) => {
          const done = (): void => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
    }
    res.end();
  } catch (error) {
    onError(error);
    res.destroy();
  }
}

function problemWire(details: ProblemDetails, headers: Array<[string, string]> = []): WireResponse {
  return {
    status: details.status,
    headers: [['content-type', PROBLEM_CONTENT_TYPE], ...headers],
    body: Buffer.from(JSON.stringify(details)),
  };
}

function mountWire(response: MountResponse): WireResponse {
  const headers = Object.entries(response.headers ?? {});
  if (response.body === undefined) return { status: response.status, headers, body: Buffer.alloc(0) };
  const isText = typeof response.body === 'string';
  if (!headers.some(([name]) => name.toLowerCase() === 'content-type')) {
    headers.push(['content-type', isText ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8']);
  }
  return { status: response.status, headers, body: Buffer.from(isText ? (response.body as string) : JSON.stringify(response.body)) };
}

/** Node's own answers to requests it could not parse, as problem+json (Node would send a bare status line). */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request line (URL) and headers are larger than the host accepts (16 KiB); send long values in the body.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request was not received completely in time.'],
  ERR_HTTP_REQUEST_HEADERS_TIMEOUT: [408, 'The request headers were not received completely in time.'],
};

/** Answers a request Node could not parse (431 for a URL or headers over the limit, 408, else 400) with a problem document, then closes. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, detail] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'The request could not be parsed as HTTP/1.1.'];
  const body = JSON.stringify(problem(status, detail));
  const reason = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Serves HTTP-triggered functions on node:http under `/<routePrefix>/<route>` (route templates, methods -> 404/405,
 * auth levels -> 401, body limit -> 413, request timeout -> 504, handler errors -> 500 problem without stack),
 * plus mounted APIs by path prefix and `GET /admin/host/status` (admin key).
 */
export class HttpTriggerServer {
  readonly #invoke: InvokeFunction;
  readonly #options: Required<Omit<HttpTriggerServerOptions, 'port' | 'hostname'>> & { port: number; hostname: string };
  readonly #route: (method: string, segments: readonly string[]) => RouteResult;
  readonly #server: Server;
  #url: string | undefined;
  #draining = false;
  #stopping = false;
  #inFlight = 0;
  #idle: Array<() => void> = [];

  constructor(registrations: readonly FunctionRegistration[], invoke: InvokeFunction, options: HttpTriggerServerOptions) {
    this.#invoke = invoke;
    this.#options = {
      port: options.port ?? 7071,
      hostname: options.hostname ?? '127.0.0.1',
      routePrefix: (options.routePrefix ?? 'api').replace(/^\/+|\/+$/g, ''),
      maxRequestBodyBytes: options.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_BYTES,
      requestTimeoutInMs: options.requestTimeoutInMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      keys: options.keys,
      mounts: options.mounts ?? [],
      logger: options.logger ?? silentLogger,
    };
    const routes: HttpRoute[] = registrations.filter((r) => r.kind === 'httpTrigger').map(toHttpRoute);
    this.#route = createRouter(routes);
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket));
  }

  /** Base URL once listening, e.g. http://127.0.0.1:7071 (no trailing slash). */
  get url(): string {
    if (!this.#url) throw new Error('The HTTP server is not listening yet.');
    return this.#url;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#options.port, this.#options.hostname, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.#server.address() as AddressInfo;
    const host = this.#options.hostname.includes(':') ? `[${this.#options.hostname}]` : this.#options.hostname;
    this.#url = `http://${host}:${port}`;
    return this.#url;
  }

  /**
   * First phase of shutdown: new function requests get 503 while mounted APIs stay served (functions and trigger
   * engines still finishing may call the durable client); resolves when in-flight requests are done or after
   * timeoutInMs (default 10 s).
   */
  async drain(options: { timeoutInMs?: number } = {}): Promise<void> {
    this.#draining = true;
    this.#server.closeIdleConnections();
    await this.#whenIdle(options.timeoutInMs ?? 10_000);
  }

  /** Drains (if not done yet), then stops listening and closes every connection. */
  async stop(options: { timeoutInMs?: number } = {}): Promise<void> {
    if (this.#stopping) return;
    if (!this.#draining) await this.drain(options);
    this.#stopping = true;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await this.#whenIdle(options.timeoutInMs ?? 10_000);
    this.#server.closeAllConnections();
    if (this.#url) await closed;
  }

  async #whenIdle(timeoutInMs: number): Promise<void> {
    if (this.#inFlight === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.#idle.push(resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutInMs))),
    ]);
    clearTimeout(timer);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.#stopping || (this.#draining && !this.#isMountRequest(req))) {
      sendWire(res, problemWire(problem(503, 'The host is shutting down.')), true);
      return;
    }
    this.#inFlight += 1;
    const invocationId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RequestTimeoutError()), this.#options.requestTimeoutInMs);
      });
      const wire = await Promise.race([this.#respond(req, invocationId), timeout]);
      clearTimeout(timer);
      if (res.headersSent) return;
      if (wire.stream) {
        const onError = (error: unknown): void =>
          this.#options.logger.log('error', 'A streamed response failed after its headers were sent.', {
            invocationId,
            url: req.url,
            error: describeError(error),
          });
        await sendStream(res, wire, wire.stream, this.#draining, onError);
      } else sendWire(res, wire, this.#draining);
    } catch (error) {
      if (res.headersSent) return;
      if (error instanceof RequestTimeoutError) {
        this.#options.logger.log('error', `Request timed out after ${this.#options.requestTimeoutInMs} ms.`, {
          invocationId,
          url: req.url,
        });
        const detail = `The request did not complete within ${this.#options.requestTimeoutInMs} ms.`;
        sendWire(res, problemWire(problem(504, detail, { invocationId })), true);
      } else {
        this.#options.logger.log('error', 'Unexpected host error while serving a request.', { invocationId, error: String(error) });
        sendWire(res, problemWire(problem(500, 'The host failed to serve the request.', { invocationId })), this.#draining);
      }
    } finally {
      clearTimeout(timer);
      this.#inFlight -= 1;
      if (this.#inFlight === 0) this.#idle.splice(0).forEach((resolve) => resolve());
    }
  }

  #isMountRequest(req: IncomingMessage): boolean {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    return this.#options.mounts.some((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
  }

  async #respond(req: IncomingMessage, invocationId: string): Promise<WireResponse> {
    const origin = `http://${req.headers.host ?? `${this.#options.hostname}:${this.#options.port}`}`;
    let url: URL;
    try {
      url = new URL(req.url ?? '/', origin);
    } catch {
      return problemWire(problem(400, 'The request URL is malformed.'));
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const mount = this.#options.mounts.find((m) => url.pathname === m.prefix || url.pathname.startsWith(`${m.prefix}/`));
    if (mount) return this.#respondMount(req, mount, url, method);
    if (url.pathname === '/admin/host/status') return this.#respondStatus(req, url);

    const prefix = this.#options.routePrefix === '' ? '' : `/${this.#options.routePrefix}`;
    const underPrefix = prefix === '' || url.pathname.toLowerCase() === prefix || url.pathname.toLowerCase().startsWith(`${prefix}/`);
    const segments = underPrefix ? splitPath(url.pathname.slice(prefix.length)) : [];
    if (!segments) return problemWire(problem(400, 'The request path is not valid percent-encoding.'));
    const routed: RouteResult = underPrefix ? this.#route(method, segments) : { kind: 'notFound' };
    if (routed.kind === 'notFound') return problemWire(problem(404, `No function serves ${method} ${url.pathname}.`));
    if (routed.kind === 'methodNotAllowed') {
      const detail = `${method} is not allowed on ${url.pathname}; allowed: ${routed.allow.join(', ')}.`;
      return problemWire(problem(405, detail), [['allow', routed.allow.join(', ')]]);
    }
    const { route, params } = routed;
    const key = headerValue(req, 'x-functions-key') ?? url.searchParams.get('code') ?? undefined;
    if (!isAuthorized(route.authLevel, key, this.#options.keys)) {
      const detail = `Function "${route.registration.name}" requires a ${route.authLevel} key in the x-functions-key header or the code query parameter.`;
      return problemWire(problem(401, detail));
    }
    const body = await readBody(req, this.#options.maxRequestBodyBytes);
    if (body.kind === 'tooLarge') {
      return problemWire(problem(413, `The request body exceeds ${this.#options.maxRequestBodyBytes} bytes.`), [['connection', 'close']]);
    }
    if (body.kind === 'aborted') return problemWire(problem(400, 'The request body was not received completely.'));

    const request = toFunctionsRequest(req, origin, params, body.body);
    let result: unknown;
    try {
      const traceParent = headerValue(req, 'traceparent');
      result = await this.#invoke(route.registration, request, {
        invocationId,
        triggerMetadata: { ...params },
        ...(traceParent ? { traceParent } : {}),
      });
    } catch (error) {
      this.#options.logger.log('error', `Function "${route.registration.name}" failed.`, { invocationId, error: describeError(error) });
      return problemWire(
        problem(500, `Function "${route.registration.name}" failed; see the host log for invocation ${invocationId}.`, { invocationId }),
      );
    }
    try {
      return await toWireResponse(result);
    } catch (error) {
      const detail = error instanceof InvalidHttpResultError ? error.message : 'The function returned a response the host could not send.';
      this.#options.logger.log('error', detail, { invocationId, functionName: route.registration.name });
      return problemWire(problem(500, detail, { invocationId }));
    }
  }

  async #respondMount(req: IncomingMessage, mount: HttpMount, url: URL, method: string): Promise<WireResponse> {
    if (mount.key !== undefined) {
      const key = headerValue(req, 'x-functions-key') ?? url.searchParams.get('code') ?? basicPassword(req) ?? undefined;
      if (!isAuthorized('function', key, { function: mount.key, admin: this.#options.keys.admin })) {
        return problemWire(
          problem(401, `${mount.prefix} requires the host's system key in the code query parameter or the x-functions-key header.`),
        );
      }
    }
    const body = await readBody(req, this.#options.maxRequestBodyBytes);
    if (body.kind === 'tooLarge') return problemWire(problem(413, `The request body exceeds ${this.#options.maxRequestBodyBytes} bytes.`));
    if (body.kind === 'aborted') return problemWire(problem(400, 'The request body was not received completely.'));
    const path = url.pathname.slice(mount.prefix.length) || '/';
    return mountWire(await mount.handle({ method, path, query: url.searchParams, body: body.body.toString('utf8') }));
  }

  #respondStatus(req: IncomingMessage, url: URL): WireResponse {
    const key = headerValue(req, 'x-functions-key') ?? url.searchParams.get('code') ?? undefined;
    if (!isAuthorized('admin', key, this.#options.keys)) return problemWire(problem(401, 'The host status requires the admin key.'));
    const state = this.#draining ? 'Stopping' : 'Running';
    return { status: 200, headers: [['content-type', 'application/json; charset=utf-8']], body: Buffer.from(JSON.stringify({ state })) };
  }
}

/** The password of an `Authorization: Basic` header (how the durable client sends the key of its rpcBaseUrl). */
function basicPassword(req: IncomingMessage): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(headerValue(req, 'authorization') ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
}
