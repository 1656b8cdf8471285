import { describe, expect, it } from 'vitest';
import { COERCION_POLICIES } from '../../domain/coercionPolicy.js';
import type { ExpectedValue } from '../../domain/expected.js';
import { matchValue } from './matchValue.js';
import type { MatchResult } from './matchState.js';

const ctx = { policy: COERCION_POLICIES.default, path: '' };
const ok: MatchResult = { score: 1, passed: true, entries: [] };

describe('matchValue: matchers', () => {
  it.each<[string, ExpectedValue, unknown, MatchResult]>([
    ['$value alone', { $value: 'celsius' }, 'celsius', ok],
    [
      '$value mismatch',
      { $value: 'celsius' },
      'kelvin',
      { score: 0, passed: false, entries: [{ path: '', kind: 'mismatch', expected: 'celsius', actual: 'kelvin' }] },
    ],
    ['$one_of: any alternative', { $one_of: ['NYC', 'New York'] }, 'New York', ok],
    [
      '$one_of: none of the scalar alternatives',
      { $one_of: ['NYC', 'New York'] },
      'Boston',
      {
        score: 0,
        passed: false,
        entries: [
          {
            path: '',
            kind: 'mismatch',
            expected: { $one_of: ['NYC', 'New York'] },
            actual: 'Boston',
            message: 'expected one of 2 values, got "Boston"',
          },
        ],
      },
    ],
    [
      '$one_of: coercion inside an alternative is named',
      { $one_of: [1, 2] },
      '2',
      { score: 1, passed: true, entries: [{ path: '', kind: 'coerced', expected: 2, actual: '2', coercions: ['numeric_string'] }] },
    ],
    [
      '$one_of over objects: the best alternative is reported',
      {
        $one_of: [
          { a: 1, b: 2 },
          { a: 9, b: 9 },
        ],
      },
      { a: 1, b: 3 },
      { score: 0.5, passed: false, entries: [{ path: '/b', kind: 'mismatch', expected: 2, actual: 3 }] },
    ],
    ['$value joins $one_of as the first alternative', { $value: 1, $one_of: [2] }, 2, ok],
    ['$optional, present and matching', { $optional: true, $value: 3 }, 3, ok],
    [
      '$optional, present and wrong',
      { $optional: true, $value: 3 },
      4,
      { score: 0, passed: false, entries: [{ path: '', kind: 'mismatch', expected: 3, actual: 4 }] },
    ],
    ['$optional with no value accepts anything present', { $optional: true }, { any: 'thing' }, ok],
    ['$range inside', { $range: { min: 1, max: 10 } }, 10, ok],
    ['$range open above', { $range: { min: 1 } }, 1e9, ok],
    [
      '$range below',
      { $range: { min: 1, max: 10 } },
      0.5,
      {
        score: 0,
        passed: false,
        entries: [
          { path: '', kind: 'mismatch', expected: { $range: { min: 1, max: 10 } }, actual: 0.5, message: 'expected a number in [1, 10]' },
        ],
      },
    ],
    [
      '$range open below, above max',
      { $range: { max: 0 } },
      1,
      {
        score: 0,
        passed: false,
        entries: [{ path: '', kind: 'mismatch', expected: { $range: { max: 0 } }, actual: 1, message: 'expected a number in [-∞, 0]' }],
      },
    ],
    [
      '$range with a numeric string (default)',
      { $range: { min: 1, max: 10 } },
      '5',
      {
        score: 1,
        passed: true,
        entries: [{ path: '', kind: 'coerced', expected: { $range: { min: 1, max: 10 } }, actual: '5', coercions: ['numeric_string'] }],
      },
    ],
    [
      '$range with a non-number',
      { $range: { min: 1 } },
      'soon',
      {
        score: 0,
        passed: false,
        entries: [
          {
            path: '',
            kind: 'type_mismatch',
            expected: { $range: { min: 1 } },
            actual: 'soon',
            message: 'expected a number in [1, +∞], got string',
          },
        ],
      },
    ],
    [
      '$tolerance relative',
      { $value: 200, $tolerance: { relative: 0.01 } },
      201.9,
      { score: 1, passed: true, entries: [{ path: '', kind: 'coerced', expected: 200, actual: 201.9, coercions: ['numeric_tolerance'] }] },
    ],
    [
      '$tolerance relative exceeded',
      { $value: 200, $tolerance: { relative: 0.01 } },
      202.1,
      { score: 0, passed: false, entries: [{ path: '', kind: 'mismatch', expected: 200, actual: 202.1 }] },
    ],
    [
      '$tolerance absolute',
      { $value: 0, $tolerance: { absolute: 0.1 } },
      -0.1,
      { score: 1, passed: true, entries: [{ path: '', kind: 'coerced', expected: 0, actual: -0.1, coercions: ['numeric_tolerance'] }] },
    ],
    [
      '$tolerance reaches nested numbers',
      { $value: { lat: 48.8566, lon: 2.3522 }, $tolerance: { absolute: 0.001 } },
      { lat: 48.857, lon: 2.352 },
      {
        score: 1,
        passed: true,
        entries: [
          { path: '/lat', kind: 'coerced', expected: 48.8566, actual: 48.857, coercions: ['numeric_tolerance'] },
          { path: '/lon', kind: 'coerced', expected: 2.3522, actual: 2.352, coercions: ['numeric_tolerance'] },
        ],
      },
    ],
    [
      '$unordered array',
      { $value: ['b', 'a'], $unordered: true },
      ['a', 'b'],
      {
        score: 1,
        passed: true,
        entries: [{ path: '', kind: 'coerced', coercions: ['unordered_array'], message: 'elements matched in another order' }],
      },
    ],
    [
      '$unordered: $one_of of arrays',
      { $one_of: [['x'], ['b', 'a']], $unordered: true },
      ['a', 'b'],
      {
        score: 1,
        passed: true,
        entries: [{ path: '', kind: 'coerced', coercions: ['unordered_array'], message: 'elements matched in another order' }],
      },
    ],
    [
      '$unordered: unequal lengths pair what they can',
      { $value: [1, 2, 3], $unordered: true },
      [3, 4],
      {
        score: 1 / 3,
        passed: false,
        entries: [
          { path: '/1', kind: 'mismatch', expected: 1, actual: 4 },
          { path: '/-', kind: 'missing', expected: 2 },
        ],
      },
    ],
    [
      '$unordered: element objects matched optimally, not greedily',
      { $value: [{ id: { $one_of: [1, 2] } }, { id: 1 }], $unordered: true },
      [{ id: 1 }, { id: 2 }],
      {
        score: 1,
        passed: true,
        entries: [{ path: '', kind: 'coerced', coercions: ['unordered_array'], message: 'elements matched in another order' }],
      },
    ],
    ['$any: any value', { $any: true }, null, ok],
    ['$any: an object', { $any: true }, [1, { a: 2 }], ok],
  ])('%s', (_name, expected, actual, result) => {
    expect(matchValue(expected, actual, ctx)).toEqual(result);
  });

  it.each<[string, ExpectedValue, MatchResult]>([
    ['$optional omitted', { $optional: true, $value: 3 }, ok],
    [
      '$any omitted is missing (presence is checked)',
      { $any: true },
      { score: 0, passed: false, entries: [{ path: '/x', kind: 'missing', expected: { $any: true } }] },
    ],
    ['$any + $optional omitted', { $any: true, $optional: true }, ok],
    [
      '$one_of omitted',
      { $one_of: [1, 2] },
      { score: 0, passed: false, entries: [{ path: '/x', kind: 'missing', expected: { $one_of: [1, 2] } }] },
    ],
  ])('absent argument: %s', (_name, expected, result) => {
    expect(matchValue({ x: expected }, {}, ctx)).toEqual(result);
  });

  it('an absent top-level value is missing unless optional', () => {
    expect(matchValue(5, undefined, { ...ctx, path: '/limit' })).toEqual({
      score: 0,
      passed: false,
      entries: [{ path: '/limit', kind: 'missing', expected: 5 }],
    });
    expect(matchValue({ $optional: true }, undefined, ctx)).toEqual(ok);
  });
});
