import { describe, expect, it } from 'vitest';
import type { ExpectedValue } from '../../domain/expected.js';
import { compareData, type CompareDataOptions } from './compareData.js';
import type { MatchResult } from './matchState.js';

const ok: MatchResult = { score: 1, passed: true, entries: [] };

describe('compareData (stage 3)', () => {
  it.each<[string, ExpectedValue, unknown, CompareDataOptions, MatchResult]>([
    ['identical nested data', { items: [{ id: 1, price: 9.99 }], total: 1 }, { items: [{ id: 1, price: 9.99 }], total: 1 }, {}, ok],
    [
      'within the default 0.01% relative tolerance',
      { price: 1000 },
      { price: 1000.09 },
      {},
      {
        score: 1,
        passed: true,
        entries: [{ path: '/price', kind: 'coerced', expected: 1000, actual: 1000.09, coercions: ['numeric_tolerance'] }],
      },
    ],
    [
      'beyond the default tolerance',
      { price: 1000 },
      { price: 1000.2 },
      {},
      { score: 0, passed: false, entries: [{ path: '/price', kind: 'mismatch', expected: 1000, actual: 1000.2 }] },
    ],
    [
      'a configured tolerance',
      { price: 1000 },
      { price: 1000.2 },
      { relativeTolerance: 0.001 },
      {
        score: 1,
        passed: true,
        entries: [{ path: '/price', kind: 'coerced', expected: 1000, actual: 1000.2, coercions: ['numeric_tolerance'] }],
      },
    ],
    [
      'zero tolerance',
      { price: 1000 },
      { price: 1000.01 },
      { relativeTolerance: 0 },
      { score: 0, passed: false, entries: [{ path: '/price', kind: 'mismatch', expected: 1000, actual: 1000.01 }] },
    ],
    [
      'no string coercions',
      { n: 5, s: 'Paris', b: true },
      { n: '5', s: 'paris', b: 'true' },
      {},
      {
        score: 0,
        passed: false,
        entries: [
          {
            path: '/n',
            kind: 'mismatch',
            expected: 5,
            actual: '5',
            coercions: ['numeric_string'],
            message: 'numeric_string would make them equal but the coercion policy does not allow it',
          },
          {
            path: '/s',
            kind: 'mismatch',
            expected: 'Paris',
            actual: 'paris',
            coercions: ['string_case'],
            message: 'string_case would make them equal but the coercion policy does not allow it',
          },
          {
            path: '/b',
            kind: 'mismatch',
            expected: true,
            actual: 'true',
            coercions: ['boolean_string'],
            message: 'boolean_string would make them equal but the coercion policy does not allow it',
          },
        ],
      },
    ],
    ['a $range for a time-sensitive value', { temp_c: { $range: { min: -10, max: 40 } } }, { temp_c: 21.5 }, {}, ok],
    ['$any for a volatile value', { fetched_at: { $any: true } }, { fetched_at: '2024-05-01T10:00:00Z' }, {}, ok],
    [
      '$unordered data',
      { $value: [{ id: 2 }, { id: 1 }], $unordered: true },
      [{ id: 1 }, { id: 2 }],
      {},
      {
        score: 1,
        passed: true,
        entries: [{ path: '', kind: 'coerced', coercions: ['unordered_array'], message: 'elements matched in another order' }],
      },
    ],
    [
      'ignored paths, wildcards over indexes and keys',
      {
        meta: { request_id: 'a' },
        items: [
          { id: 1, updated_at: 'x' },
          { id: 2, updated_at: 'y' },
        ],
        by_id: { a: { ts: 1 } },
      },
      { meta: { request_id: 'b', trace: 't' }, items: [{ id: 1, updated_at: 'z' }, { id: 2 }], by_id: { a: { ts: 2 } } },
      { ignorePaths: ['/meta', '/items/*/updated_at', '/by_id/*/ts'] },
      ok,
    ],
    [
      'an extra key that is not ignored',
      { a: 1 },
      { a: 1, request_id: 'r' },
      { ignorePaths: ['/other'] },
      { score: 1 / 2, passed: false, entries: [{ path: '/request_id', kind: 'extra', actual: 'r' }] },
    ],
    [
      'no data returned',
      { a: 1 },
      undefined,
      {},
      { score: 0, passed: false, entries: [{ path: '', kind: 'missing', expected: { a: 1 } }] },
    ],
    ['ignoring the root ignores everything', { a: 1 }, { b: 2 }, { ignorePaths: [''] }, ok],
  ])('%s', (_name, expected, actual, options, result) => {
    expect(compareData(expected, actual, options)).toEqual(result);
  });

  it('throws on an ignore path that is not a JSON pointer (broken configuration)', () => {
    expect(() => compareData({ a: 1 }, { a: 1 }, { ignorePaths: ['a'] })).toThrow(/not a JSON pointer/);
  });
});
