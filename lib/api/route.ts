import type { z } from 'zod';
import type { Services } from '../ports/index.js';
import type { Principal, Role } from '../domain/index.js';

/** Starting and signalling run orchestrations; functions/ implements it with the Durable client. */
export interface RunOrchestrations {
  start(runId: string): Promise<void>;
  cancel(runId: string): Promise<void>;
  /** starts orchestration `runBenchmark` for a stored benchmark run (instance id = its id) */
  startBenchmark(benchmarkRunId: string): Promise<void>;
}

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  principal: Principal | undefined;
  services: Services;
  orchestrations: RunOrchestrations;
  /** the request's own URL, for links */
  url: URL;
  headers: { get(name: string): string | null };
  /** the body as received, for routes that declare `rawBody` (their `body` is then undefined) */
  rawBody?: RawBody;
}

/** A non-JSON (or self-parsed) request body: its text and its media type (lower case, parameters dropped). */
export interface RawBody {
  text: string;
  mediaType: string;
  /** the full Content-Type header (with parameters such as `boundary`) */
  contentType: string;
}

export interface ApiResult {
  status: number;
  /** sent as JSON */
  body?: unknown;
  /** sent as is, chunk by chunk (a streamed export); set `content-type` in `headers` */
  stream?: AsyncIterable<string | Uint8Array>;
  headers?: Record<string, string>;
}

/**
 * One row of the route table: the single source for routing (one app.http per route), validation, roles and
 * the OpenAPI document.
 */
export interface RouteDefinition<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  /** the function name (unique) */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** path under /api, with `{param}` templates, e.g. `v1/runs/{id}` */
  path: string;
  /** 'anonymous' only for health */
  role: Role | 'anonymous';
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The route reads its body itself (`ctx.rawBody`) instead of a JSON `body` schema: the media types it accepts
   * (others get 415) and the largest body in bytes (default 10 MiB; over it 413).
   */
  rawBody?: { mediaTypes: readonly string[]; maxBytes?: number };
  /** further media types read as a JSON `body` besides application/json and `+json` ones (patch formats are refused otherwise) */
  jsonMediaTypes?: readonly string[];
  /** status codes and meanings for the OpenAPI document */
  responses: Record<number, string>;
  /** the schema of the success body, for the OpenAPI document (not enforced at run time) */
  response?: z.ZodType;
  /** media types of a success body that is not (only) JSON, e.g. a streamed export; `response` describes the JSON one */
  responseMediaTypes?: readonly string[];
  handler(ctx: RouteContext<z.infer<P>, z.infer<Q>, z.infer<B>>): Promise<ApiResult>;
}

/** Identity helper that keeps the zod inference of a route's handler. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  route: RouteDefinition<P, Q, B>,
): RouteDefinition {
  return route as unknown as RouteDefinition;
}
