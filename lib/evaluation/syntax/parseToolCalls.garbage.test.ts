import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodeSchema } from '../../domain/stageResult.js';
import { ToolCallSchema } from '../../domain/toolCall.js';
import { parseToolCalls } from './parseToolCalls.js';
import { runSyntaxStage } from './runSyntaxStage.js';

/** Whatever comes in, the outcome is well-formed data: never a throw, calls valid, failures with a known code. */
function expectWellFormed(raw: unknown): void {
  const outcome = parseToolCalls(raw);
  for (const call of outcome.calls) expect(ToolCallSchema.safeParse(call).success).toBe(true);
  expect(outcome.answer === null || typeof outcome.answer === 'string').toBe(true);
  if (!outcome.ok) {
    expect(ErrorCodeSchema.safeParse(outcome.error_code).success).toBe(true);
    expect(outcome.message.length).toBeGreaterThan(10);
  }
}

const cyclic: Record<string, unknown> = { type: 'tool_use', name: 'f' };
cyclic.input = { self: cyclic };
const throwing = new Proxy(
  {},
  {
    get() {
      throw new Error('boom');
    },
    has() {
      throw new Error('boom');
    },
  },
);
const deepJson = '['.repeat(50_000) + ']'.repeat(50_000);
const deepObject = (() => {
  let v: unknown = {};
  for (let i = 0; i < 20_000; i++) v = { a: v };
  return { name: 'f', arguments: v };
})();

describe('parseToolCalls never throws on garbage', () => {
  it.each<[string, unknown]>([
    ['a number', 42],
    ['NaN', Number.NaN],
    ['a bigint', 10n],
    ['a boolean', true],
    ['a symbol', Symbol('x')],
    ['a function', () => 1],
    ['an array of numbers', [1, 2, 3]],
    ['an array of arrays', [[[]]]],
    ['an array of nulls', [null]],
    ['an empty object', {}],
    ['a Date', new Date(0)],
    ['a Map', new Map([['a', 1]])],
    ['a typed array', new Uint8Array(4)],
    ['a cyclic object', cyclic],
    ['a throwing proxy', throwing],
    ['deeply nested JSON text', deepJson],
    ['a deeply nested arguments object', deepObject],
    ['deep python nesting', `f(a=${'['.repeat(100_000)})`],
    ['a huge string of prose', 'word '.repeat(400_000)],
    ['a huge broken JSON text', `{"a": "${'x'.repeat(1_000_000)}`],
    ['a huge python text', `f(a="${'y'.repeat(1_000_000)}")`],
    ['lone surrogates', '\ud800\udfff\ud800'],
    ['NUL bytes', '\u0000\u0000'],
    ['a choices field of junk', { choices: [null] }],
    ['a tool_calls list of junk', { role: 'assistant', tool_calls: [null, 1, 'x', [], { function: 5 }] }],
    ['content blocks of junk', { content: [1, null] }],
    ['output items of junk', { output: [{ type: 'function_call', name: ['x'], arguments: 5 }] }],
    ['arguments with NaN and functions', [{ name: 'f', arguments: { a: Number.NaN, b: () => 1, c: undefined } }]],
    [
      'shared references in arguments',
      (() => {
        const s = { x: 1 };
        return [{ name: 'f', arguments: { a: s, b: s } }];
      })(),
    ],
    ['a name that is an object', [{ name: { evil: true }, arguments: {} }]],
    ['an exotic __proto__ key', '[{"name": "f", "arguments": {"__proto__": {"polluted": true}}}]'],
    ['fenced garbage', '```\n{"a": \n```'],
    ['an unterminated fence', '```json\n[{"name": "f"}]'],
    ['fences inside fences', '```'.repeat(100_000)],
    ['a fence full of whitespace (no regex blow-up)', `\`\`\`${' '.repeat(200_000)}x`],
    ['a float-hint worst case', `[{"name": "f", "arguments": {"a": 1.${'0'.repeat(200_000)}1}}]`],
  ])('%s', (_name, raw) => {
    expect(() => expectWellFormed(raw)).not.toThrow();
    expect(() => runSyntaxStage(raw)).not.toThrow();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('random JSON values and strings (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.string(), fc.json(), fc.anything()), (raw) => {
        expectWellFormed(raw);
      }),
      { numRuns: 1000 },
    );
  });

  it('random mutations of real outputs (property)', () => {
    const base = JSON.stringify({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_orders', arguments: '{"limit": 5.0, "status": ["open"]}' } }],
    });
    fc.assert(
      fc.property(fc.nat(base.length), fc.nat(base.length), fc.string({ maxLength: 4 }), (at, cut, insert) => {
        expectWellFormed(base.slice(0, at) + insert + base.slice(Math.min(base.length, at + (cut % 5))));
        expectWellFormed(`f(a=[1, {'k': 2.0}], b="x")`.slice(0, at % 30) + insert);
      }),
      { numRuns: 1000 },
    );
  });
});
