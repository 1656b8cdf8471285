import fc from 'fast-check';

/** The part of JSON Schema (2020-12, as lib/api/openapi writes it) the fuzz generator reads. */
export interface FuzzSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: FuzzSchema;
  properties?: Record<string, FuzzSchema>;
  required?: string[];
  additionalProperties?: boolean | FuzzSchema;
  anyOf?: FuzzSchema[];
  oneOf?: FuzzSchema[];
  allOf?: FuzzSchema[];
  $ref?: string;
  default?: unknown;
}

export interface ArbitraryOptions {
  /** resolves `$ref` (`#/components/schemas/X`) */
  resolve?: (ref: string) => FuzzSchema | undefined;
  /** what `format: uri` strings look like (outbound URLs: keep them on this machine) */
  uri?: fc.Arbitrary<string>;
  /** share of values drawn from outside the schema (wrong types, hostile strings), 0-1; default 0.08 */
  junk?: number;
  /** hostile strings within the length bounds among valid strings (default true) */
  hostileStrings?: boolean;
}

/** Strings that have broken parsers before: lone surrogates, control characters, huge, path tricks, JSON-ish. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\ud800',
    'a\udc00b',
    '\u0000',
    '\u0007x',
    '../../etc/passwd',
    '%2e%2e%2f',
    '{"a":',
    '💥'.repeat(70),
    'x'.repeat(5000),
    '__proto__',
    'constructor',
    'null',
    '-1',
    '1e309',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Any JSON value (what a hostile client can send where a field is expected). */
const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

const DEPTH_LIMIT = 6;

/**
 * A fast-check arbitrary of values for a JSON Schema: mostly valid ones (types, enums, consts, bounds, required
 * and optional properties, unions), with a share of junk at every level so validation paths are exercised too.
 * Patterns are not inverted: a patterned string is drawn from short identifier-like text (often valid).
 */
export function arbitraryOf(schema: FuzzSchema | boolean | undefined, options: ArbitraryOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const junk = options.junk ?? 0.08;
  const valid = validArbitrary(schema ?? {}, options, depth);
  if (junk <= 0 || depth > DEPTH_LIMIT) return valid;
  const weight = Math.max(1, Math.round((1 - junk) / junk));
  return fc.oneof({ arbitrary: valid, weight }, { arbitrary: junkValue, weight: 1 });
}

function validArbitrary(schema: FuzzSchema | boolean, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  // JSON Schema's boolean schemas (`items: false` after `prefixItems`, `not: {}`): true admits anything, false nothing
  if (typeof schema === 'boolean') return schema ? junkValue : fc.constant(undefined);
  if (schema.$ref) {
    const target = options.resolve?.(schema.$ref);
    return target ? validArbitrary(target, options, depth + 1) : junkValue;
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.oneOf ?? schema.anyOf;
  if (union?.length) return fc.oneof(...union.map((s) => arbitraryOf(s, options, depth + 1)));
  if (schema.allOf?.length) return validArbitrary(Object.assign({}, ...schema.allOf) as FuzzSchema, options, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (depth > DEPTH_LIMIT) return fc.constant(type === 'array' ? [] : type === 'object' ? {} : null);
  switch (type) {
    case 'string':
      return stringArbitrary(schema, options);
    case 'integer':
      return fc.integer({
        min: Math.ceil(schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000)),
        max: Math.floor(schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 100_000)),
      });
    case 'number':
      return fc.double({
        min: schema.minimum ?? schema.exclusiveMinimum ?? -1e6,
        max: schema.maximum ?? schema.exclusiveMaximum ?? 1e6,
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryOf(schema.items, options, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, Math.max(4, schema.minItems ?? 0)),
      });
    case 'object':
    case undefined:
      if (!schema.properties && type === undefined) return junkValue;
      return objectArbitrary(schema, options, depth);
    default:
      return junkValue;
  }
}

function stringArbitrary(schema: FuzzSchema, options: ArbitraryOptions): fc.Arbitrary<string> {
  if (schema.format === 'uri') return options.uri ?? fc.webUrl();
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (schema.format === 'email') return fc.emailAddress();
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 24, minLength + 24));
  if (schema.pattern)
    return fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/).filter((s) => s.length >= minLength && s.length <= maxLength);
  // valid-looking strings mostly, and now and then a hostile one that still fits the length bounds (a lone surrogate,
  // a control character, path tricks): those reach handlers past schema validation
  const hostile = hostileString.filter((s) => s.length >= minLength && s.length <= Math.max(maxLength, minLength));
  if (options.hostileStrings === false)
    return fc.oneof(
      { arbitrary: fc.string({ minLength, maxLength }), weight: 4 },
      { arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }), weight: 1 },
    );
  return fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength }), weight: 4 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }), weight: 1 },
    { arbitrary: hostile, weight: 1 },
  );
}

function objectArbitrary(schema: FuzzSchema, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) model[name] = arbitraryOf(sub, options, depth + 1);
  const requiredKeys = Object.keys(properties).filter((k) => required.has(k));
  const record = fc.record(model, { requiredKeys });
  // now and then a property the schema does not have (strict objects must refuse it)
  return fc.oneof(
    { arbitrary: record, weight: 9 },
    { arbitrary: record.map((r) => ({ ...(r as object), unexpected_field: 1 })), weight: 1 },
  );
}
