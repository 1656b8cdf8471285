import { describe, expect, it } from 'vitest';
import { COERCION_POLICIES } from '../../domain/coercionPolicy.js';
import type { ExpectedToolCall } from '../../domain/expected.js';
import { compareCalls } from './compareCalls.js';
import { type CallComparison } from './callComparison.js';
import { call } from './testCases.test-helpers.js';

const policy = COERCION_POLICIES.default;
const f = (args: ExpectedToolCall['arguments']): ExpectedToolCall => ({ tool_name: 'f', arguments: args });

describe('compareCalls', () => {
  it('pairs same-tool calls optimally by argument score, with soft precision and recall', () => {
    const expected = [f({ a: 1, b: 1 }), f({ a: 2, b: 2 })];
    const actual = [call('f', { a: 2, b: 9 }), call('f', { a: 1, b: 1 }), call('g')];
    const result = compareCalls(expected, actual, { policy });
    expect(result).toEqual<CallComparison>({
      passed: false,
      precision: 1.5 / 3,
      recall: 1.5 / 2,
      f1: (2 * 0.5 * 0.75) / 1.25,
      outOfOrder: false,
      assignment: [
        { expected_index: 0, actual_index: 1 },
        { expected_index: 1, actual_index: 0 },
      ],
      calls: [
        { expected_index: 0, actual_index: 1, tool_name: 'f', status: 'matched', argument_score: 1, entries: [] },
        {
          expected_index: 1,
          actual_index: 0,
          tool_name: 'f',
          status: 'partial',
          argument_score: 0.5,
          entries: [{ path: '/b', kind: 'mismatch', expected: 2, actual: 9 }],
        },
        { expected_index: null, actual_index: 2, tool_name: 'g', status: 'extra', argument_score: 0, entries: [] },
      ],
    });
  });

  it('pairs a same-tool call even when every argument is wrong (partial), rather than reporting missing + extra', () => {
    const result = compareCalls([f({ a: 1 })], [call('f', { a: 2 })], { policy });
    expect(result.calls.map((c) => c.status)).toEqual(['partial']);
    expect(result.f1).toBe(0);
  });

  it.each<[string, string[], string[], boolean, number, boolean]>([
    ['in order', ['a', 'b', 'c'], ['a', 'b', 'c'], false, 1, true],
    ['swapped pair', ['a', 'b'], ['b', 'a'], true, 0.5, false],
    ['rotation keeps two of three in order', ['a', 'b', 'c'], ['c', 'a', 'b'], true, 2 / 3, false],
    ['a duplicate tool in order', ['a', 'a', 'b'], ['a', 'a', 'b'], false, 1, true],
    ['a missing call, order kept', ['a', 'b', 'c'], ['a', 'c'], false, 0.8, false],
  ])('strict order: %s', (_name, expectedNames, actualNames, outOfOrder, f1, passed) => {
    const result = compareCalls(
      expectedNames.map((tool_name) => ({ tool_name, arguments: {} })),
      actualNames.map((name) => call(name)),
      { policy, callOrder: 'strict' },
    );
    expect({ outOfOrder: result.outOfOrder, f1: result.f1, passed: result.passed }).toEqual({
      outOfOrder,
      f1: expect.closeTo(f1, 12) as number,
      passed,
    });
  });

  it('never pairs calls of different tools, even with identical arguments', () => {
    const result = compareCalls([{ tool_name: 'a', arguments: { x: 1 } }], [call('b', { x: 1 })], { policy });
    expect(result.assignment).toEqual([]);
    expect(result.calls.map((c) => `${c.tool_name}:${c.status}`)).toEqual(['a:missing', 'b:extra']);
  });
});
