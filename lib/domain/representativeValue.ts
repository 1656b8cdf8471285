import { isMatcherObject, type ArgMatcher, type ExpectedValue } from './expected.js';
import type { JsonObject, JsonValue } from './json.js';

const OMIT = Symbol('omit');

/**
 * A plain JSON value that the expected value accepts, with every matcher resolved: `$value` (itself resolved),
 * else the first of `$one_of`, else the midpoint of `$range` (or its one bound), else, for `$optional`, the key
 * is left out of its object (null at the top or in an array), else null (`$any`, or only modifiers such as
 * `$tolerance`/`$unordered`). Plain values and structures are copied as they are.
 */
export function representativeValue(expected: ExpectedValue): JsonValue {
  const value = resolve(expected);
  return value === OMIT ? null : value;
}

function resolve(expected: ExpectedValue): JsonValue | typeof OMIT {
  if (expected === null || typeof expected !== 'object') return expected;
  if (Array.isArray(expected)) return expected.map(representativeValue);
  if (isMatcherObject(expected)) return resolveMatcher(expected);
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(expected)) {
    const resolved = resolve(value);
    if (resolved !== OMIT) out[key] = resolved;
  }
  return out;
}

function resolveMatcher(matcher: ArgMatcher): JsonValue | typeof OMIT {
  if (matcher.$value !== undefined) return resolve(matcher.$value);
  const first = matcher.$one_of?.[0];
  if (first !== undefined) return resolve(first);
  if (matcher.$range) {
    const { min, max } = matcher.$range;
    if (min !== undefined && max !== undefined) return min + (max - min) / 2;
    return min ?? max ?? 0;
  }
  return matcher.$optional ? OMIT : null;
}
