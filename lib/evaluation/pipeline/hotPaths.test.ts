import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, findReferences, hasReferences, type LogicDetails, type TestCase, type ToolCall } from '../../domain/index.js';
import { efficiencyOf, surelyDifferentArguments } from './efficiency.js';
import { toolResultsOf } from './toolResults.js';

/**
 * The per-case fast paths of stages 1-2 (issue 17) against the plain definitions they replace: same answers on
 * random inputs, including the sizes where a fast path hands over to the general one.
 */

const toolName = fc.constantFrom('a', 'b', 'B', 'get_x', 'get_y', 'zz', 'é', 'a.b');
const call = (tool_name: string, args: Record<string, unknown> = {}): ToolCall => ({ tool_name, arguments: args as ToolCall['arguments'] });

/** toolResultsOf as it was written before the small-array path: a Map, then a sort by `<`. */
function toolResultsReference(expected: readonly string[], actual: readonly string[], matched: readonly string[]) {
  const byTool = new Map<
    string,
    { tool_name: string; expected_calls: number; actual_calls: number; matched_calls: number; passed: boolean }
  >();
  const entry = (tool_name: string) => {
    let r = byTool.get(tool_name);
    if (!r) byTool.set(tool_name, (r = { tool_name, expected_calls: 0, actual_calls: 0, matched_calls: 0, passed: false }));
    return r;
  };
  for (const n of expected) entry(n).expected_calls++;
  for (const n of actual) entry(n).actual_calls++;
  for (const n of matched) entry(n).matched_calls++;
  for (const r of byTool.values()) r.passed = r.expected_calls === r.matched_calls && r.actual_calls === r.expected_calls;
  return [...byTool.values()].sort((x, y) => (x.tool_name < y.tool_name ? -1 : x.tool_name > y.tool_name ? 1 : 0));
}

describe('toolResultsOf', () => {
  it('counts and orders tools like the Map-and-sort definition, below and above the small-array limit', () => {
    fc.assert(
      fc.property(fc.array(toolName, { maxLength: 40 }), fc.array(toolName, { maxLength: 40 }), (expected, actual) => {
        const testCase = { expected_tool_calls: expected.map((n) => call(n)), alternative_tool_calls: [] } as unknown as TestCase;
        const matched = expected.filter((n, i) => actual[i] === n);
        const logic = {
          call_set: -1,
          calls: matched.map((tool_name) => ({ tool_name, status: 'matched' })),
        } as unknown as LogicDetails;
        expect(
          toolResultsOf(
            testCase,
            actual.map((n) => call(n)),
            logic,
          ),
        ).toStrictEqual(toolResultsReference(expected, actual, matched));
      }),
      { numRuns: 300 },
    );
  });
});

describe('efficiencyOf', () => {
  it('counts an identical repeated call once as redundant, whichever calls of other tools sit around it', () => {
    const calls = [call('a', { x: 1 }), call('b', { y: 2 }), call('a', { x: 1 }), call('c'), call('a', { x: 2 })];
    expect(efficiencyOf([{ calls, needed: 3 }], 0).redundant_calls).toBe(1);
    expect(efficiencyOf([{ calls: [call('a', { x: 1 }), call('b', { x: 1 })], needed: 2 }], 0).redundant_calls).toBe(0);
  });

  it('equals counting over every call (keys only collide within a tool)', () => {
    const arb = fc.array(fc.tuple(toolName, fc.constantFrom(0, 1, 2)), { maxLength: 12 });
    fc.assert(
      fc.property(arb, (pairs) => {
        const calls = pairs.map(([n, v]) => call(n, { v }));
        const seen = new Set<string>();
        let redundant = 0;
        for (const [n, v] of pairs) {
          const key = `${n}\u0000${v}`;
          if (seen.has(key)) redundant++;
          else seen.add(key);
        }
        expect(efficiencyOf([{ calls, needed: 1 }], 0).redundant_calls).toBe(redundant);
      }),
      { numRuns: 300 },
    );
  });
});

describe('surelyDifferentArguments', () => {
  it('is true only when the canonical JSON of the arguments differs', () => {
    const leaf = fc.oneof(
      fc.constantFrom('x', 'y', '1', 1, 2, 0, -0, 1.5, true, false, null, Number.NaN, Number.POSITIVE_INFINITY, undefined),
      fc.constant({ n: 1 }),
      fc.constant([1]),
    );
    const args = fc.dictionary(fc.constantFrom('a', 'b', 'c'), leaf, { maxKeys: 3 });
    fc.assert(
      fc.property(args, args, (a, b) => {
        if (surelyDifferentArguments(a, b)) expect(canonicalJson(a)).not.toBe(canonicalJson(b));
      }),
      { numRuns: 2000 },
    );
    expect(surelyDifferentArguments({ a: 'x', b: 1 }, { b: 2, a: 'x' })).toBe(true);
    expect(surelyDifferentArguments({ a: 0 }, { a: -0 })).toBe(false);
    expect(surelyDifferentArguments({ a: Number.NaN }, { a: null })).toBe(false);
  });
});

describe('hasReferences', () => {
  it('is findReferences(value).length > 0 on nested values, malformed references included', () => {
    const ref = fc.oneof(
      fc.constant({ $from: { call: 'get_x', path: '/id' } }),
      fc.constant({ $from: { call: 'get_x', path: 'no-slash' } }), // malformed: skipped by both
      fc.constant({ $from: 'get_x' }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        ref,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', '$x'), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(hasReferences(v)).toBe(findReferences(v).length > 0);
      }),
      { numRuns: 500 },
    );
  });
});
