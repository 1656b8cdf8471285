/** A route parameter constraint as ASP.NET Core routing (and so Azure Functions) spells it: `int`, `min(1)`, ... */
export type RouteConstraint = (value: string) => boolean;

const INT = /^-?\d+$/;
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)$/;
const GUID_PLAIN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function inInt32(value: string): boolean {
  if (!INT.test(value)) return false;
  const n = Number(value);
  return n >= -2147483648 && n <= 2147483647;
}

function inInt64(value: string): boolean {
  if (!INT.test(value)) return false;
  const n = BigInt(value);
  return n >= -9223372036854775808n && n <= 9223372036854775807n;
}

function numberArgs(name: string, args: string[], count: number): number[] {
  const values = args.map(Number);
  if (args.length !== count || values.some((v) => !Number.isFinite(v))) {
    throw new Error(`route constraint "${name}" expects ${count} numeric argument(s), got "${args.join(',')}"`);
  }
  return values;
}

type ConstraintFactory = (args: string[], name: string) => RouteConstraint;

const noArgs =
  (test: RouteConstraint): ConstraintFactory =>
  (args, name) => {
    if (args.length > 0) throw new Error(`route constraint "${name}" takes no arguments`);
    return test;
  };

const CONSTRAINTS: Record<string, ConstraintFactory> = {
  int: noArgs(inInt32),
  long: noArgs(inInt64),
  bool: noArgs((v) => /^(true|false)$/i.test(v)),
  alpha: noArgs((v) => /^[a-z]+$/i.test(v)),
  guid: noArgs((v) => GUID_PLAIN.test(v.replace(/^\{(.*)\}$/, '$1'))),
  datetime: noArgs((v) => !Number.isNaN(Date.parse(v))),
  decimal: noArgs((v) => DECIMAL.test(v)),
  double: noArgs((v) => DECIMAL.test(v) || /^-?\d+(\.\d+)?e[+-]?\d+$/i.test(v)),
  float: noArgs((v) => DECIMAL.test(v) || /^-?\d+(\.\d+)?e[+-]?\d+$/i.test(v)),
  min: (args, name) => {
    const [min = 0] = numberArgs(name, args, 1);
    return (v) => inInt64(v) && Number(v) >= min;
  },
  max: (args, name) => {
    const [max = 0] = numberArgs(name, args, 1);
    return (v) => inInt64(v) && Number(v) <= max;
  },
  range: (args, name) => {
    const [min = 0, max = 0] = numberArgs(name, args, 2);
    return (v) => inInt64(v) && Number(v) >= min && Number(v) <= max;
  },
  minlength: (args, name) => {
    const [min = 0] = numberArgs(name, args, 1);
    return (v) => v.length >= min;
  },
  maxlength: (args, name) => {
    const [max = 0] = numberArgs(name, args, 1);
    return (v) => v.length <= max;
  },
  length: (args, name) => {
    if (args.length === 1) {
      const [exact = 0] = numberArgs(name, args, 1);
      return (v) => v.length === exact;
    }
    const [min = 0, max = 0] = numberArgs(name, args, 2);
    return (v) => v.length >= min && v.length <= max;
  },
  regex: (args) => {
    const pattern = new RegExp(args.join(','), 'i');
    return (v) => pattern.test(v);
  },
};

/** Parses one constraint (`int`, `range(1,10)`, `regex(^a+$)`); throws on an unknown or malformed constraint. */
export function parseRouteConstraint(text: string): RouteConstraint {
  const match = /^([a-z]+)(?:\((.*)\))?$/is.exec(text);
  const name = match?.[1]?.toLowerCase();
  const factory = name === undefined ? undefined : CONSTRAINTS[name];
  if (!match || !name || !factory) throw new Error(`unknown route constraint "${text}"`);
  const rawArgs = match[2];
  const args = rawArgs === undefined ? [] : name === 'regex' ? [rawArgs] : rawArgs.split(',').map((a) => a.trim());
  return factory(args, name);
}

/** Splits `int:min(1):regex(a:b)` into constraint texts, keeping colons inside parentheses. */
export function splitConstraints(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ':' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}
