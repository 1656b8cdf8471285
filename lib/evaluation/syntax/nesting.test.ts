import { describe, expect, it } from 'vitest';
import { jsonTextTooDeep, MAX_NESTING } from './nesting.js';
import { parseToolCalls } from './parseToolCalls.js';

const nested = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('nesting limit', () => {
  it.each<[string, string, boolean]>([
    ['short text is never scanned', '[[[[]]]]', false],
    ['exactly the limit', nested(MAX_NESTING), false],
    ['one past the limit', nested(MAX_NESTING + 1), true],
    ['brackets inside strings do not count', JSON.stringify({ s: '['.repeat(5000), t: 'a\\"[' }), false],
  ])('jsonTextTooDeep: %s', (_name, text, expected) => {
    expect(jsonTextTooDeep(text)).toBe(expected);
  });

  it.each<[string, unknown, string, string]>([
    [
      'argument text',
      [{ name: 'f', arguments: nested(MAX_NESTING + 5) }],
      'invalid_arguments_json',
      'f (list[0]): arguments nest deeper than 1000 levels',
    ],
    [
      'output text',
      `[{"name": "f", "arguments": ${nested(MAX_NESTING + 5)}}]`,
      'unparseable_output',
      'The output nests deeper than 1000 levels.',
    ],
    [
      'an arguments object',
      [{ name: 'f', arguments: JSON.parse(nested(MAX_NESTING + 5)) as unknown }],
      'invalid_arguments_json',
      `f (list[0]): arguments are not plain JSON: ${'/a'.repeat(30)}… nests deeper than 1000 levels`,
    ],
    [
      'python text',
      `f(a=${'['.repeat(MAX_NESTING + 5)}${']'.repeat(MAX_NESTING + 5)})`,
      'unparseable_output',
      'The Python-style call text does not parse: values nest deeper than 1000 levels at position 1004, before "[[[[[]]]]]]]]]]]]]]]]]]]"….',
    ],
  ])('refuses too-deep %s', (_name, raw, error_code, message) => {
    expect(parseToolCalls(raw)).toMatchObject({ ok: false, error_code, message });
  });

  it('accepts arguments at the limit', () => {
    expect(parseToolCalls([{ name: 'f', arguments: nested(MAX_NESTING - 1) }]).ok).toBe(true);
  });
});
