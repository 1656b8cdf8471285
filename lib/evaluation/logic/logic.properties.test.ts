import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COERCION_POLICIES, type CoercionPolicy } from '../../domain/coercionPolicy.js';
import type { ExpectedToolCall, ExpectedValue } from '../../domain/expected.js';
import type { JsonValue } from '../../domain/json.js';
import type { ToolCall } from '../../domain/toolCall.js';
import { runLogicStage } from './runLogicStage.js';
import { testCase } from './testCases.test-helpers.js';

const POLICIES: CoercionPolicy[] = [COERCION_POLICIES.default, COERCION_POLICIES.bfcl, COERCION_POLICIES.strict];

// argument names never start with `$` (an all-`$` object would read as a matcher)
const key = fc.string({ minLength: 1, maxLength: 6 }).filter((k) => !k.startsWith('$'));
const leaf = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const { value } = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
}));
const args = fc.dictionary(key, value, { maxKeys: 4 });
const toolName = fc.constantFrom('get_weather', 'get_forecast', 'search');
const callSet = fc.array(fc.record({ tool_name: toolName, arguments: args }), { maxLength: 4 });

/** Actual calls made from expected calls with plain values: a deep copy through JSON, as a target's output would be. */
function asActual(calls: ReadonlyArray<{ tool_name: string; arguments: Record<string, JsonValue> }>): ToolCall[] {
  return JSON.parse(JSON.stringify(calls)) as ToolCall[];
}

/** A value no coercion of any policy makes equal to the original. */
function changed(v: JsonValue): JsonValue {
  if (typeof v === 'string') return `${v}q`;
  if (typeof v === 'number') return Math.abs(v) < 1e15 ? v + 1 : v / 2;
  if (typeof v === 'boolean') return !v;
  return 'changed!';
}

describe('stage 2 properties', () => {
  it('a case matched against itself scores 1 and passes, under every named policy', () => {
    fc.assert(
      fc.property(callSet, fc.constantFrom(...POLICIES), (expected, policy) => {
        const out = runLogicStage(asActual(expected), testCase({ expected_tool_calls: expected }), { policy });
        expect(out.result.passed).toBe(true);
        expect(out.result.score).toBe(1);
        expect(out.assignment).toHaveLength(expected.length);
      }),
      { numRuns: 300 },
    );
  });

  it('permuting parallel calls never changes the verdict or the score', () => {
    // small value domains and $one_of make many equally good pairings, where a greedy matcher would be order-sensitive
    const smallArgs = fc.record(
      {
        x: fc.oneof(fc.constantFrom<ExpectedValue>(1, 2, 3), fc.constant<ExpectedValue>({ $one_of: [1, 2] })),
        y: fc.constantFrom<ExpectedValue>('a', 'b'),
      },
      { requiredKeys: ['x'] },
    );
    const actualArgs = fc.record({ x: fc.constantFrom(1, 2, 3, '2'), y: fc.constantFrom('a', 'b', 'A') }, { requiredKeys: [] });
    const scenario = fc.record({
      expected: fc.array(fc.record({ tool_name: fc.constantFrom('f', 'g'), arguments: smallArgs }), { minLength: 1, maxLength: 5 }),
      actual: fc.array(fc.record({ tool_name: fc.constantFrom('f', 'g'), arguments: actualArgs }), { maxLength: 5 }),
      seed: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
      policy: fc.constantFrom(...POLICIES),
    });
    fc.assert(
      fc.property(scenario, ({ expected, actual, seed, policy }) => {
        const tc = testCase({ expected_tool_calls: expected as ExpectedToolCall[] });
        const permuted = [...actual];
        for (let i = permuted.length - 1; i > 0; i--) {
          const j = seed[i]! % (i + 1);
          [permuted[i], permuted[j]] = [permuted[j]!, permuted[i]!];
        }
        const a = runLogicStage(actual, tc, { policy });
        const b = runLogicStage(permuted, tc, { policy });
        expect(b.result.passed).toBe(a.result.passed);
        expect(b.result.score).toBeCloseTo(a.result.score!, 12);
      }),
      { numRuns: 400 },
    );
  });

  describe('one changed argument', () => {
    const scenario = fc
      .record({
        expected: fc.array(fc.record({ tool_name: toolName, arguments: args }), { minLength: 1, maxLength: 3 }),
        policy: fc.constantFrom(...POLICIES),
        pick: fc.nat(),
      })
      .filter(({ expected }) => expected.some((c) => Object.keys(c.arguments).length > 0))
      .map(({ expected, policy, pick }) => {
        const withArgs = expected.map((c, i) => i).filter((i) => Object.keys(expected[i]!.arguments).length > 0);
        const callIndex = withArgs[pick % withArgs.length]!;
        const keys = Object.keys(expected[callIndex]!.arguments);
        const argName = keys[pick % keys.length]!;
        const original = expected[callIndex]!.arguments[argName]!;
        const actual = asActual(expected);
        actual[callIndex]!.arguments[argName] = changed(original);
        return { expected, actual, policy, callIndex, argName, original };
      });

    it('never passes', () => {
      fc.assert(
        fc.property(scenario, ({ expected, actual, policy }) => {
          const out = runLogicStage(actual, testCase({ expected_tool_calls: expected }), { policy });
          expect(out.result.passed).toBe(false);
          expect(out.result.score).toBeLessThan(1);
        }),
        { numRuns: 300 },
      );
    });

    it('passes when $one_of lists the changed value', () => {
      fc.assert(
        fc.property(scenario, ({ expected, actual, policy, callIndex, argName, original }) => {
          const withOneOf: ExpectedToolCall[] = expected.map((c, i) =>
            i === callIndex ? { ...c, arguments: { ...c.arguments, [argName]: { $one_of: [original, changed(original)] } } } : c,
          );
          expect(runLogicStage(actual, testCase({ expected_tool_calls: withOneOf }), { policy }).result.passed).toBe(true);
        }),
        { numRuns: 200 },
      );
    });

    it('passes when an alternative call set has the changed value', () => {
      fc.assert(
        fc.property(scenario, ({ expected, actual, policy }) => {
          const out = runLogicStage(actual, testCase({ expected_tool_calls: expected, alternative_tool_calls: [asActual(actual)] }), {
            policy,
          });
          expect(out.result.passed).toBe(true);
          expect(out.call_set).toBe(0);
        }),
        { numRuns: 200 },
      );
    });
  });
});
