import { describe, expect, it } from 'vitest';
import { COERCION_POLICIES } from '../../domain/coercionPolicy.js';
import type { ExpectedValue } from '../../domain/expected.js';
import { matchArguments, matchValue } from './matchValue.js';
import type { JsonSchema } from './schemaNav.js';
import type { MatchResult } from './matchState.js';

const ctx = { policy: COERCION_POLICIES.default, path: '' };

describe('matchValue: structure, diff kinds and scores', () => {
  it.each<[string, ExpectedValue, unknown, MatchResult]>([
    ['equal scalars', 'a', 'a', { score: 1, passed: true, entries: [] }],
    [
      'equal nested values',
      { a: [1, { b: null }], c: { d: true } },
      { c: { d: true }, a: [1, { b: null }] },
      { score: 1, passed: true, entries: [] },
    ],
    ['empty object and array are one check each', { o: {}, a: [] }, { o: {}, a: [] }, { score: 1, passed: true, entries: [] }],
    [
      'nested mismatch, extra key: one failed check each',
      { a: 1, b: { c: 2, d: 3 } },
      { a: 1, b: { c: 2, d: 4 }, e: 5 },
      {
        score: 2 / 4,
        passed: false,
        entries: [
          { path: '/b/d', kind: 'mismatch', expected: 3, actual: 4 },
          { path: '/e', kind: 'extra', actual: 5 },
        ],
      },
    ],
    [
      'a missing object fails each of its leaves',
      { a: 1, b: { c: 2, d: [3, 4] } },
      { a: 1 },
      { score: 1 / 4, passed: false, entries: [{ path: '/b', kind: 'missing', expected: { c: 2, d: [3, 4] } }] },
    ],
    [
      'type mismatch of an object',
      { a: { b: 1, c: 2 } },
      { a: 'b=1,c=2' },
      {
        score: 0,
        passed: false,
        entries: [
          { path: '/a', kind: 'type_mismatch', expected: { b: 1, c: 2 }, actual: 'b=1,c=2', message: 'expected object, got string' },
        ],
      },
    ],
    [
      'type mismatch: null for a string',
      'x',
      null,
      {
        score: 0,
        passed: false,
        entries: [{ path: '', kind: 'type_mismatch', expected: 'x', actual: null, message: 'expected string, got null' }],
      },
    ],
    [
      'type mismatch: array for an object',
      { a: 1 },
      [1],
      {
        score: 0,
        passed: false,
        entries: [{ path: '', kind: 'type_mismatch', expected: { a: 1 }, actual: [1], message: 'expected object, got array' }],
      },
    ],
    [
      'type mismatch: object for an array',
      [1, 2],
      { 0: 1 },
      {
        score: 0,
        passed: false,
        entries: [{ path: '', kind: 'type_mismatch', expected: [1, 2], actual: { 0: 1 }, message: 'expected array, got object' }],
      },
    ],
    [
      'ordered array: shorter and longer',
      { short: [1, 2, 3], long: [1] },
      { short: [1, 9], long: [1, 2] },
      {
        score: 2 / 5,
        passed: false,
        entries: [
          { path: '/short/1', kind: 'mismatch', expected: 2, actual: 9 },
          { path: '/short/2', kind: 'missing', expected: 3 },
          { path: '/long/1', kind: 'extra', actual: 2 },
        ],
      },
    ],
    [
      'mismatch deep in arrays of objects',
      [{ id: 1, tags: ['a'] }],
      [{ id: 1, tags: ['b'] }],
      { score: 1 / 2, passed: false, entries: [{ path: '/0/tags/0', kind: 'mismatch', expected: 'a', actual: 'b' }] },
    ],
    [
      'keys with / and ~ are escaped in paths',
      { 'a/b': { '~c': 1 } },
      { 'a/b': { '~c': 2 } },
      { score: 0, passed: false, entries: [{ path: '/a~1b/~0c', kind: 'mismatch', expected: 1, actual: 2 }] },
    ],
    [
      'an inherited property name is not a key',
      { toString: 1 },
      {},
      { score: 0, passed: false, entries: [{ path: '/toString', kind: 'missing', expected: 1 }] },
    ],
    [
      'an actual __proto__ key is an ordinary extra key',
      {},
      JSON.parse('{"__proto__": 1}'),
      { score: 0, passed: false, entries: [{ path: '/__proto__', kind: 'extra', actual: 1 }] },
    ],
  ])('%s', (_name, expected, actual, result) => {
    expect(matchValue(expected, actual, ctx)).toEqual(result);
  });

  it('starts paths at ctx.path', () => {
    expect(matchValue({ b: 1 }, { b: 2 }, { ...ctx, path: '/a' }).entries).toEqual([
      { path: '/a/b', kind: 'mismatch', expected: 1, actual: 2 },
    ]);
  });

  it('allowExtraKeys ignores top-level extras only', () => {
    const result = matchValue({ a: { b: 1 } }, { a: { b: 1, c: 2 }, z: 3 }, { ...ctx, allowExtraKeys: true });
    expect(result).toEqual({ score: 1 / 2, passed: false, entries: [{ path: '/a/c', kind: 'extra', actual: 2 }] });
  });

  it('matchArguments reads the top-level object as argument names even when they start with $', () => {
    expect(matchArguments({ $filter: 'x' }, { $filter: 'x' }, ctx)).toEqual({ score: 1, passed: true, entries: [] });
    expect(matchArguments({ $filter: 'x' }, {}, ctx)).toEqual({
      score: 0,
      passed: false,
      entries: [{ path: '/$filter', kind: 'missing', expected: 'x' }],
    });
  });

  it('follows the schema into nested properties, additionalProperties, items and prefixItems', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        filters: { type: 'object', properties: { status: { enum: ['OPEN', 'CLOSED'] } }, additionalProperties: { type: 'integer' } },
        sizes: { type: 'array', items: { type: 'integer' } },
        pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string', enum: ['A'] }] },
      },
    };
    const result = matchValue(
      { filters: { status: 'OPEN', limit: 5 }, sizes: [1, 2], pair: [3, 'A'] },
      { filters: { status: 'open', limit: 5 }, sizes: [1, 2], pair: [3, 'a'] },
      { ...ctx, schema, floatLiteralPaths: new Set(['/filters/limit', '/sizes/1', '/pair/0']) },
    );
    expect(result).toEqual({
      score: 1,
      passed: true,
      entries: [
        { path: '/filters/status', kind: 'coerced', expected: 'OPEN', actual: 'open', coercions: ['enum_case'] },
        { path: '/filters/limit', kind: 'coerced', expected: 5, actual: 5, coercions: ['float_to_int'] },
        { path: '/sizes/1', kind: 'coerced', expected: 2, actual: 2, coercions: ['float_to_int'] },
        { path: '/pair/1', kind: 'coerced', expected: 'A', actual: 'a', coercions: ['enum_case'] },
      ],
    });
  });

  it.each<[string, unknown]>([
    ['undefined inside', { a: undefined }],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
    ['a bigint', 10n],
    ['a Date', new Date(0)],
    ['a deeply nested array', JSON.parse('['.repeat(500) + ']'.repeat(500))],
    ['a huge string', 'x'.repeat(1_000_000)],
  ])('never throws on bad actual input: %s', (_name, actual) => {
    const expected: ExpectedValue = { a: [1, { b: '2024-01-05' }], n: 5, s: 'x', c: { $one_of: [1, 'a'] }, r: { $range: { min: 0 } } };
    for (const value of [actual, { a: actual, n: actual, s: actual, c: actual, r: actual }, { a: [actual, { b: actual }] }]) {
      const result = matchValue(expected, value, { ...ctx, schema: { properties: { n: { type: 'integer' }, s: { enum: ['x'] } } } });
      expect(result.passed).toBe(false);
      expect(result.score).toBeGreaterThanOrEqual(0);
      expect(result.score).toBeLessThan(1);
    }
  });
});
