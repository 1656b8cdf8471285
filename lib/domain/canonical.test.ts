import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.js';

/** The definition, written plainly: what the faster canonicalJson must equal. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(obj[k])}`).join(',')}}`;
}

describe('canonicalJson', () => {
  it('equals the plain definition on any JSON-like value (undefined members, odd keys, nesting)', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.double(), fc.integer(), fc.string()),
      node: fc.oneof(
        { depthSize: 'small' },
        tie('leaf'),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('a', 'b', '"q"', '\\u2028', 'é', '__proto__x')), tie('node'), { maxKeys: 5 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts keys, drops undefined members, writes undefined array items as null', () => {
    expect(canonicalJson({ b: 1, a: undefined, c: [undefined, { z: 1, y: 2 }] })).toBe('{"b":1,"c":[null,{"y":2,"z":1}]}');
    expect(canonicalJson({ a: undefined })).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
  });
});
