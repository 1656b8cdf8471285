import { parseRouteConstraint, splitConstraints, type RouteConstraint } from './routeConstraints.js';

type Segment =
  | { kind: 'literal'; text: string }
  | {
      kind: 'parameter';
      name: string;
      optional: boolean;
      catchAll: boolean;
      defaultValue: string | undefined;
      constraints: RouteConstraint[];
    };

/** A compiled Azure Functions (ASP.NET Core style) route template. */
export interface RouteTemplate {
  template: string;
  /** Per segment: 1 literal, 2 constrained parameter, 3 parameter, 4 optional, 5 catch-all (lower wins). */
  precedence: number[];
  /** Route values for the decoded path segments, or undefined when the template does not match. */
  match(segments: readonly string[]): Record<string, string> | undefined;
}

const PARAMETER = /^\{(\*{1,2})?([A-Za-z_][\w]*)(?::([^=?]*?))?(?:=([^?]*))?(\?)?\}$/;

function parseSegment(text: string, template: string): Segment {
  if (!text.includes('{') && !text.includes('}')) return { kind: 'literal', text: text.toLowerCase() };
  const match = PARAMETER.exec(text);
  if (!match) throw new Error(`route "${template}": segment "${text}" is not a literal or a single {parameter}`);
  const [, stars, name = '', constraintText, defaultValue, optionalMark] = match;
  const constraints = constraintText ? splitConstraints(constraintText).map(parseRouteConstraint) : [];
  return {
    kind: 'parameter',
    name,
    optional: optionalMark === '?',
    catchAll: stars !== undefined,
    defaultValue,
    constraints,
  };
}

function precedenceOf(segment: Segment): number {
  if (segment.kind === 'literal') return 1;
  if (segment.catchAll) return 5;
  if (segment.optional || segment.defaultValue !== undefined) return 4;
  return segment.constraints.length > 0 ? 2 : 3;
}

function validate(segments: Segment[], template: string): void {
  const names = new Set<string>();
  segments.forEach((segment, index) => {
    if (segment.kind === 'literal') {
      if (segment.text === '') throw new Error(`route "${template}" has an empty segment`);
      return;
    }
    const key = segment.name.toLowerCase();
    if (names.has(key)) throw new Error(`route "${template}" repeats parameter "${segment.name}"`);
    names.add(key);
    const last = index === segments.length - 1;
    if (segment.catchAll && !last) throw new Error(`route "${template}": catch-all "{*${segment.name}}" must be the last segment`);
    const rest = segments.slice(index + 1);
    const trailingOptional = rest.every((s) => s.kind === 'parameter' && (s.optional || s.catchAll || s.defaultValue !== undefined));
    if ((segment.optional || segment.defaultValue !== undefined) && !trailingOptional) {
      throw new Error(`route "${template}": optional parameter "${segment.name}" must be followed only by optional parameters`);
    }
  });
}

function matches(segment: Extract<Segment, { kind: 'parameter' }>, value: string): boolean {
  return segment.constraints.every((constraint) => constraint(value));
}

/**
 * Compiles a route template: literal segments (case-insensitive), `{name}`, `{name?}`, `{name=default}`,
 * `{name:int}` and chained constraints (`{n:int:min(1)}`), and a final catch-all `{*rest}`. Throws on a malformed
 * template (a configuration error).
 */
export function compileRouteTemplate(template: string): RouteTemplate {
  const trimmed = template.replace(/^\/+|\/+$/g, '');
  const segments = trimmed === '' ? [] : trimmed.split('/').map((text) => parseSegment(text, template));
  validate(segments, template);
  return {
    template,
    precedence: segments.map(precedenceOf),
    match(pathSegments) {
      const values: Record<string, string> = {};
      for (let i = 0; i < segments.length; i += 1) {
        const segment = segments[i] as Segment;
        const value = pathSegments[i];
        if (segment.kind === 'literal') {
          if (value === undefined || value.toLowerCase() !== segment.text) return undefined;
          continue;
        }
        if (segment.catchAll) {
          const rest = pathSegments.slice(i).join('/');
          if (rest !== '' && !matches(segment, rest)) return undefined;
          if (rest !== '') values[segment.name] = rest;
          return values;
        }
        if (value === undefined) {
          if (!segment.optional && segment.defaultValue === undefined) return undefined;
          if (segment.defaultValue !== undefined) values[segment.name] = segment.defaultValue;
          continue;
        }
        if (!matches(segment, value)) return undefined;
        values[segment.name] = value;
      }
      return pathSegments.length > segments.length ? undefined : values;
    },
  };
}

/** Orders templates most specific first: compares segment precedence left to right, then longer first. */
export function compareRoutePrecedence(a: RouteTemplate, b: RouteTemplate): number {
  const length = Math.min(a.precedence.length, b.precedence.length);
  for (let i = 0; i < length; i += 1) {
    const diff = (a.precedence[i] ?? 0) - (b.precedence[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return b.precedence.length - a.precedence.length;
}
