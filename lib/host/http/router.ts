import type { FunctionRegistration } from '../registration.js';
import { compareRoutePrecedence, compileRouteTemplate, type RouteTemplate } from './routeTemplate.js';

export type AuthLevel = 'anonymous' | 'function' | 'admin';

/** One HTTP-triggered function as the router sees it. */
export interface HttpRoute {
  registration: FunctionRegistration;
  template: RouteTemplate;
  /** Upper-case methods; undefined means every method. */
  methods: ReadonlySet<string> | undefined;
  authLevel: AuthLevel;
}

export type RouteResult =
  | { kind: 'match'; route: HttpRoute; params: Record<string, string> }
  | { kind: 'methodNotAllowed'; allow: string[] }
  | { kind: 'notFound' };

const AUTH_LEVELS: readonly AuthLevel[] = ['anonymous', 'function', 'admin'];

function toAuthLevel(value: unknown, functionName: string): AuthLevel {
  if (value === undefined) return 'anonymous';
  const level = typeof value === 'string' ? value.toLowerCase() : value;
  if (AUTH_LEVELS.includes(level as AuthLevel)) return level as AuthLevel;
  throw new Error(`function "${functionName}": authLevel ${JSON.stringify(value)} is not anonymous, function or admin`);
}

function toMethods(value: unknown, functionName: string): ReadonlySet<string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((m) => typeof m !== 'string')) {
    throw new Error(`function "${functionName}": methods must be an array of strings`);
  }
  return new Set(value.map((m: string) => m.toUpperCase()));
}

/** Builds the route of one httpTrigger registration; the route defaults to the function name, as in Azure. */
export function toHttpRoute(registration: FunctionRegistration): HttpRoute {
  const { trigger, name } = registration;
  const routeText = typeof trigger.route === 'string' && trigger.route !== '' ? trigger.route : name;
  let template: RouteTemplate;
  try {
    template = compileRouteTemplate(routeText);
  } catch (error) {
    throw new Error(`function "${name}": ${(error as Error).message}`, { cause: error });
  }
  return { registration, template, methods: toMethods(trigger.methods, name), authLevel: toAuthLevel(trigger.authLevel, name) };
}

/** Splits a path (already stripped of the route prefix) into decoded segments; undefined when malformed. */
export function splitPath(path: string): string[] | undefined {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return [];
  try {
    return trimmed.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

/**
 * Matches a method and decoded path segments against the HTTP routes: the most specific template that matches
 * and allows the method wins (ties: registration order); a path matched only under other methods gives
 * methodNotAllowed with the allowed methods; otherwise notFound.
 */
export function createRouter(routes: readonly HttpRoute[]): (method: string, segments: readonly string[]) => RouteResult {
  const ordered = routes
    .map((route, index) => ({ route, index }))
    .sort((a, b) => compareRoutePrecedence(a.route.template, b.route.template) || a.index - b.index)
    .map(({ route }) => route);
  return (method, segments) => {
    const upper = method.toUpperCase();
    const allow = new Set<string>();
    for (const route of ordered) {
      const params = route.template.match(segments);
      if (!params) continue;
      if (!route.methods || route.methods.has(upper)) return { kind: 'match', route, params };
      route.methods.forEach((m) => allow.add(m));
    }
    return allow.size > 0 ? { kind: 'methodNotAllowed', allow: [...allow].sort() } : { kind: 'notFound' };
  };
}
