import { describe, expect, it } from 'vitest';
import { describePosition, describeValue, isSpaceCode } from './describeValue.js';

describe('describeValue', () => {
  it.each<[unknown, string]>([
    ['ten', 'string "ten"'],
    ['x'.repeat(50), `string "${'x'.repeat(40)}…"`],
    [5, 'number 5'],
    [true, 'boolean true'],
    [10n, 'bigint 10'],
    [null, 'null'],
    [undefined, 'nothing'],
    [[1, 2], 'an array of 2'],
    [{ a: 1 }, 'an object'],
    [() => 1, 'a function'],
  ])('%s -> %s', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });
});

describe('describePosition', () => {
  it.each<[string, number, string]>([
    ['abc', 1, 'at position 1, before "bc"'],
    ['abc', 3, 'at the end of the text (position 3)'],
    ['x'.repeat(40), 0, `at position 0, before "${'x'.repeat(24)}"…`],
  ])('%j at %d', (text, position, expected) => {
    expect(describePosition(text, position)).toBe(expected);
  });
});

describe('isSpaceCode', () => {
  it('agrees with String.prototype.trim on every UTF-16 code unit', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const trimmed = String.fromCharCode(code).trim() === '';
      if (isSpaceCode(code) !== trimmed) throw new Error(`code ${code.toString(16)}: isSpaceCode ${isSpaceCode(code)}, trim ${trimmed}`);
    }
  });
});
