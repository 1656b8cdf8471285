import { describe, expect, it } from 'vitest';
import { parseNumericString, withinTolerance } from './numbers.js';

describe('numbers', () => {
  it.each([
    ['5', 5],
    [' -2.5e3 ', -2500],
    ['+.5', 0.5],
    ['5.', 5],
    ['abc', undefined],
    ['', undefined],
    ['0x10', undefined],
    ['Infinity', undefined],
    ['1e999', undefined],
    ['5 apples', undefined],
  ])('parseNumericString(%j) = %j', (text, value) => {
    expect(parseNumericString(text)).toBe(value);
  });

  it.each([
    [100, 100.009, undefined, 0.0001, 0, true],
    [100, 100.02, undefined, 0.0001, 0, false],
    [0, 0.001, undefined, 0.5, 0, false],
    [0, 0.001, undefined, 0, 0.01, true],
    [10, 10.4, { absolute: 0.5 }, 0, 0, true],
    [10, 10.4, { relative: 0.01 }, 0, 1, false],
    [10, 10.05, {}, 0.01, 0, false],
    [5, 5, undefined, 0, 0, false],
  ])('withinTolerance(%d, %d, %j, rel=%d, abs=%d) = %s', (e, a, override, rel, abs, ok) => {
    expect(withinTolerance(e, a, override, rel, abs)).toBe(ok);
  });
});
