import type { z } from 'zod';
import type { Services } from '../app/services.js';
import type { Principal, Role } from './roles.js';

/** Starting and signalling run orchestrations; functions/ implements it with the Durable client. */
export interface RunOrchestrations {
  start(runId: string): Promise<void>;
  cancel(runId: string): Promise<void>;
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
}

export interface ApiResult {
  status: number;
  body?: unknown;
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
  /** status codes and meanings for the OpenAPI document */
  responses: Record<number, string>;
  /** the schema of the success body, for the OpenAPI document (not enforced at run time) */
  response?: z.ZodType;
  handler(ctx: RouteContext<z.infer<P>, z.infer<Q>, z.infer<B>>): Promise<ApiResult>;
}

/** Identity helper that keeps the zod inference of a route's handler. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(route: RouteDefinition<P, Q, B>): RouteDefinition {
  return route as unknown as RouteDefinition;
}
