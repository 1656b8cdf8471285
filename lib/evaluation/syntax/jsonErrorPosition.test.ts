import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeJsonError, jsonErrorPosition } from './jsonErrorPosition.js';

function jsonParseFails(text: string): unknown {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('jsonErrorPosition', () => {
  it.each<[string, number]>([
    ['{"a": 1}', -1],
    [' [1, "x", {"b": [true, false, null]}, -0.5e+3] ', -1],
    ['{"a": 1 "b": 2}', 8],
    ['{"a": 1,}', 8],
    ['[1,]', 3],
    ["{'a': 1}", 1],
    ['{"a": }', 6],
    ['{"a": 1', 7],
    ['{"a": "x', 8],
    ['[01]', 2],
    ['{"a": tru}', 6],
    ['{"a": "\\x"}', 7],
    ['{"a": 1} x', 9],
    ['', 0],
  ])('%j -> %d', (text, position) => {
    expect(jsonErrorPosition(text)).toBe(position);
  });

  it('agrees with JSON.parse on validity (property)', () => {
    const jsonish = fc.stringMatching(/^[\s{}[\]",:0-9a-z.\-+eE\\]{0,24}$/);
    fc.assert(
      fc.property(
        fc.oneof(
          jsonish,
          fc.json(),
          fc.json().map((t) => t.slice(0, Math.max(0, t.length - 1))),
        ),
        (text) => {
          expect(jsonErrorPosition(text) === -1).toBe(jsonParseFails(text) === undefined);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('handles deep nesting without recursion', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(99_999);
    expect(jsonErrorPosition(deep)).toBe(deep.length);
  });
});

describe('describeJsonError', () => {
  it.each<[string, string]>([
    ['{"a": 1 "b": 2}', 'Expected \',\' or \'}\' after property value at position 8, before "\\"b\\": 2}"'],
    ['[1,]', 'Unexpected token \']\' at position 3, before "]"'],
    ['{"a": 1', "Expected ',' or '}' after property value at the end of the text (position 7); is it truncated?"],
    ['{"long": "' + 'x'.repeat(40) + '" oops}', "Expected ',' or '}' after property value at position 52, before \"oops}\""],
    ['{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] ]', "Expected ',' or '}' after property value at position 54, before \"]\""],
  ])('%j', (text, message) => {
    expect(describeJsonError(text, jsonParseFails(text))).toBe(message);
  });
});
