import { describe, expect, it } from 'vitest';
import { findNonJsonValue, setOwn } from './plainJson.js';

class Point {
  x = 1;
}
const shared = { a: 1 };
const cyclic: Record<string, unknown> = {};
cyclic.self = cyclic;

describe('findNonJsonValue', () => {
  it.each<[string, unknown, string | null]>([
    ['plain data', { a: [1, 'x', true, null, { b: -0.5 }] }, null],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { a: 1 }), null],
    ['NaN', { a: Number.NaN }, '/a is NaN, which JSON cannot represent'],
    ['Infinity in an array', { a: [1, Number.POSITIVE_INFINITY] }, '/a/1 is Infinity, which JSON cannot represent'],
    ['undefined', { a: undefined }, '/a is undefined'],
    ['a function', { f: () => 1 }, '/f is a function'],
    ['a bigint', { n: 1n }, '/n is a bigint'],
    ['a Date', { when: new Date(0) }, '/when is a Date'],
    ['a class instance', { p: new Point() }, '/p is a Point'],
    ['a key needing escapes', { 'a/b': { '~': Symbol('s') } }, '/a~1b/~0 is a symbol'],
    ['a shared reference', { a: shared, b: shared }, '/a repeats an object seen before (a shared or cyclic reference)'],
    ['a cycle', cyclic, '/self repeats an object seen before (a shared or cyclic reference)'],
    ['the root itself', Number.NaN, 'the value is NaN, which JSON cannot represent'],
  ])('%s', (_name, value, expected) => {
    expect(findNonJsonValue(value)).toBe(expected);
  });
});

describe('setOwn', () => {
  it('sets ordinary keys and __proto__ as own data', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, 'a', 1);
    setOwn(target, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(['a', '__proto__']);
    expect(JSON.stringify(target)).toBe('{"a":1,"__proto__":{"polluted":true}}');
  });
});
