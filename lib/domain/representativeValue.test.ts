import { describe, expect, it } from 'vitest';
import type { ExpectedValue, JsonValue } from './index.js';
import { representativeValue } from './representativeValue.js';

describe('representativeValue', () => {
  it.each<[string, ExpectedValue, JsonValue]>([
    ['a scalar', 42, 42],
    ['null', null, null],
    ['a plain structure', { a: [1, 'x', { b: true }] }, { a: [1, 'x', { b: true }] }],
    ['$value', { $value: 20.5, $tolerance: { relative: 0.1 } }, 20.5],
    ['$value null', { $value: null }, null],
    ['nested $value', { $value: { t: { $one_of: ['a', 'b'] } } }, { t: 'a' }],
    ['$one_of', { $one_of: [{ $range: { min: 1, max: 3 } }, 9] }, 2],
    ['$range midpoint', { $range: { min: -10, max: 30 } }, 10],
    ['$range with only min', { $range: { min: 5 } }, 5],
    ['$range with only max', { $range: { max: 7 } }, 7],
    ['$any', { $any: true }, null],
    ['$unordered alone', { $unordered: true }, null],
    ['$optional with a value', { $optional: true, $value: 'x' }, 'x'],
    ['$optional key left out of its object', { keep: 1, gone: { $optional: true } }, { keep: 1 }],
    ['$optional in an array', [{ $optional: true }, 2], [null, 2]],
    ['$optional at the top', { $optional: true }, null],
    ['matchers inside arrays and objects', { rows: [{ ts: { $any: true }, v: { $value: 3 } }] }, { rows: [{ ts: null, v: 3 }] }],
  ])('resolves %s', (_, expected, representative) => {
    expect(representativeValue(expected)).toEqual(representative);
  });
});
