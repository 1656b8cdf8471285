import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findFloatLiteralPaths, mayContainFloatLiteral } from './floatLiterals.js';
import { parseToolCalls } from './parseToolCalls.js';

describe('findFloatLiteralPaths', () => {
  it.each<[string, string, string[]]>([
    ['integers only', '{"a": 5, "b": [1, 2], "c": -3}', []],
    ['non-integral floats', '{"a": 5.5, "b": 0.25, "c": 1.05}', []],
    ['float-form integers', '{"limit": 5.0, "b": 1e3, "c": 2.50E2, "d": -0.0, "e": 10.00}', ['/limit', '/b', '/c', '/d', '/e']],
    ['nested paths', '{"filters": [{"price": 10.0}, {"price": 3}], "x": {"y": [1, [2, 3.0]]}}', ['/filters/0/price', '/x/y/1/1']],
    ['keys with escapes', '{"a/b": 1.0, "m~n": 2.0, "q\\"r": 3.0, "\\u00e9": 4.0}', ['/a~1b', '/m~0n', '/q"r', '/é']],
    ['numbers inside strings are ignored', '{"s": "5.0 and 1e3", "t": "{\\"k\\": 2.0}"}', []],
    ['precision-rounded integral values', '{"a": 0.99999999999999999999, "b": 1.0000000000000001}', ['/a', '/b']],
    ['whitespace and empty containers', '{ "a" : [ ] , "b" : { } , "c" : 7.0 }', ['/c']],
    ['a root array', '[1.0, {"a": 2e2}]', ['/0', '/1/a']],
  ])('%s', (_name, text, expected) => {
    expect(findFloatLiteralPaths(text)).toEqual(expected);
    if (expected.length > 0) expect(mayContainFloatLiteral(text)).toBe(true);
  });

  it('the pre-check never misses a float-form integral number (property)', () => {
    const floatText = fc.oneof(
      fc.integer({ min: -1e6, max: 1e6 }).map((n) => `${n}.${'0'.repeat(1 + (Math.abs(n) % 3))}`),
      fc.integer({ min: 0, max: 20 }).map((e) => `${e % 7}e${e}`),
      fc.integer({ min: 1, max: 99 }).map((n) => `${n / 10}E${2}`),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.string(),
            fc.oneof(
              fc.integer(),
              fc.double({ noNaN: true, noDefaultInfinity: true }),
              fc.string(),
              floatText.map((raw) => ({ raw })),
            ),
          ),
        ),
        (entries) => {
          const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${typeof v === 'object' ? v.raw : JSON.stringify(v)}`).join(', ')}}`;
          expect(() => JSON.parse(text)).not.toThrow();
          const paths = findFloatLiteralPaths(text);
          if (entries.some(([, v]) => typeof v === 'object')) expect(paths.length).toBeGreaterThan(0);
          if (paths.length > 0) expect(mayContainFloatLiteral(text)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('float_literal_paths through parseToolCalls', () => {
  it.each<[string, unknown, (string[] | undefined)[]]>([
    [
      'OpenAI argument text',
      { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"limit": 5.0, "n": 5}' } }] },
      [['/limit']],
    ],
    [
      'no float-form numbers: no field at all',
      { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{"limit": 5}' } }] },
      [undefined],
    ],
    [
      'Anthropic text: the document scan maps each block',
      '{"content": [{"type": "tool_use", "id": "a", "name": "f", "input": {"x": 1.0}}, {"type": "tool_use", "id": "b", "name": "g", "input": {"y": [2, 3.0]}}]}',
      [['/x'], ['/y/1']],
    ],
    [
      'plain JSON list text',
      '[{"name": "f", "arguments": {"p": {"q": 1e2}}}, {"name": "g", "arguments": {"z": 1}}]',
      [['/p/q'], undefined],
    ],
    [
      'completion text with object arguments',
      '{"choices": [{"message": {"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {"k": 2.0}}}, {"name": "g", "arguments": {"k": [3.0]}}]}}]}',
      [['/k'], ['/k/0']],
    ],
    [
      'legacy function_call text with object arguments',
      '{"role": "assistant", "function_call": {"name": "f", "arguments": {"n": 1e1}}}',
      [['/n']],
    ],
    [
      'Responses item text with object arguments',
      '{"output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {"z": 9.0}}]}',
      [['/z']],
    ],
    ['{tool_calls} text', '{"tool_calls": [{"name": "f", "parameters": {"q": 0.0}}]}', [['/q']]],
    ['single call text', '{"name": "f", "parameters": {"a": 4.0}}', [['/a']]],
    ['python text', 'f(n=5.0, m=5)', [['/n']]],
    [
      'objects cannot carry float form (JSON.parse already ran)',
      [{ type: 'tool_use', id: 'a', name: 'f', input: { x: 1.0 } }],
      [undefined],
    ],
  ])('%s', (_name, raw, expected) => {
    const outcome = parseToolCalls(raw);
    expect(outcome.ok).toBe(true);
    expect(outcome.calls.map((c) => c.float_literal_paths)).toEqual(expected);
  });
});
