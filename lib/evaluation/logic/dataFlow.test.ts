import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COERCION_POLICIES, TestCaseSchema, outcomeKindOf, type JsonValue, type TestCase, type ToolCall } from '../../domain/index.js';
import { runLogicStage } from './runLogicStage.js';
import type { CallOutcomes } from './callOutcomes.js';
import { call } from './testCases.test-helpers.js';

const policy = COERCION_POLICIES.default;
const from = (tool: string, path: string, index?: number) => ({ $from: { call: tool, path, ...(index === undefined ? {} : { index }) } });

const chained = (extra: Partial<TestCase> = {}) =>
  TestCaseSchema.parse({
    id: 'chain',
    nl_query: 'List the orders of ann@example.com',
    expected_tool_calls: [
      { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
      { tool_name: 'list_orders', arguments: { customer_id: from('find_customer', '/customer_id') } },
    ],
    ...extra,
  });

const ok = (result: JsonValue) => ({ ok: true, result });
const logic = (calls: ToolCall[], tc: TestCase, outcomes?: CallOutcomes) =>
  runLogicStage(calls, tc, { policy, ...(outcomes ? { outcomes } : {}) }).result;

describe('data flow between calls ($from)', () => {
  it('passes when the argument carries what the earlier call returned, whatever that value is', () => {
    const calls = [call('find_customer', { email: 'ann@example.com' }), call('list_orders', { customer_id: 'CUS-7' })];
    expect(logic(calls, chained(), [ok({ customer_id: 'CUS-7' }), ok([])])).toMatchObject({ passed: true, score: 1 });
  });

  it('data_flow_mismatch: the diff says what was passed and what the call returned (golden)', () => {
    const calls = [call('find_customer', { email: 'ann@example.com' }), call('list_orders', { customer_id: 'CUS-1' })];
    const result = logic(calls, chained(), [ok({ customer_id: 'CUS-7' }), ok([])]);
    expect(result).toMatchObject({
      passed: false,
      error_code: 'data_flow_mismatch',
      message: 'list_orders: /customer_id passed "CUS-1" where find_customer returned "CUS-7" at /customer_id',
    });
    expect((result.details as { calls: Array<{ entries: unknown[] }> }).calls[1]!.entries).toEqual([
      {
        path: '/customer_id',
        kind: 'mismatch',
        expected: 'CUS-7',
        actual: 'CUS-1',
        message: 'passed "CUS-1" where find_customer returned "CUS-7" at /customer_id',
        reference: { call: 'find_customer', path: '/customer_id', source_index: 0, resolved: true },
      },
    ]);
    expect(outcomeKindOf({ overall_passed: false, error_code: 'data_flow_mismatch' })).toBe('failed');
  });

  it('unresolved_reference: the referenced call never happened before, failed, or has no such path (golden)', () => {
    const uses = call('list_orders', { customer_id: 'CUS-7' });
    const find = call('find_customer', { email: 'ann@example.com' });
    // made after the call that uses it: the order follows from the reference
    expect(logic([uses, find], chained(), [ok([]), ok({ customer_id: 'CUS-7' })])).toMatchObject({
      error_code: 'unresolved_reference',
      message: 'list_orders: /customer_id refers to find_customer, which was not called before it',
    });
    expect(logic([find, uses], chained(), [ok({ id: 'CUS-7' }), ok([])])).toMatchObject({
      error_code: 'unresolved_reference',
      message: 'list_orders: /customer_id refers to /customer_id in the result of find_customer, which has no such path',
    });
    expect(logic([find, uses], chained(), [{ ok: false }, ok([])])).toMatchObject({
      error_code: 'unresolved_reference',
      message: 'list_orders: /customer_id refers to find_customer, which returned an error, not a result',
    });
    expect(logic([find, uses], chained())).toMatchObject({
      error_code: 'unresolved_reference',
      message:
        'list_orders: /customer_id refers to the result of find_customer, but the results of the calls are unknown (no trajectory, no environment to replay them on)',
    });
    expect(outcomeKindOf({ overall_passed: false, error_code: 'unresolved_reference' })).toBe('failed');
  });

  it('several calls of the referenced tool: the nearest earlier one that returned a result, or the one `index` names', () => {
    const tc = chained();
    const calls = [
      call('find_customer', { email: 'ann@example.com' }),
      call('find_customer', { email: 'ann@example.com' }),
      call('list_orders', { customer_id: 'CUS-2' }),
    ];
    expect(logic(calls, tc, [ok({ customer_id: 'CUS-1' }), ok({ customer_id: 'CUS-2' }), ok([])]).error_code).toBe('extra_call');
    // the retry after a failure: the failed attempt is skipped
    const retried = chained({
      expected_tool_calls: [
        { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
        { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
        { tool_name: 'list_orders', arguments: { customer_id: from('find_customer', '/customer_id') } },
      ],
    });
    expect(logic(calls, retried, [ok({ customer_id: 'CUS-2' }), { ok: false }, ok([])])).toMatchObject({ passed: true });
    const first = chained({
      expected_tool_calls: [
        { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
        { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
        { tool_name: 'list_orders', arguments: { customer_id: from('find_customer', '/customer_id', 0) } },
      ],
    });
    expect(logic(calls, first, [ok({ customer_id: 'CUS-1' }), ok({ customer_id: 'CUS-2' }), ok([])])).toMatchObject({
      error_code: 'data_flow_mismatch',
      message: 'list_orders: /customer_id passed "CUS-2" where find_customer returned "CUS-1" at /customer_id',
    });
  });

  it('calls without a dependency may come in any order; the referencing call must follow its source', () => {
    const tc = chained({
      expected_tool_calls: [
        { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
        { tool_name: 'check_inventory', arguments: { sku: 'SKU-MUG' } },
        { tool_name: 'list_orders', arguments: { customer_id: from('find_customer', '/customer_id') } },
      ],
    });
    const inv = call('check_inventory', { sku: 'SKU-MUG' });
    const find = call('find_customer', { email: 'ann@example.com' });
    const orders = call('list_orders', { customer_id: 'CUS-7' });
    const out = (results: JsonValue[]) => results.map(ok);
    expect(logic([inv, find, orders], tc, out([{}, { customer_id: 'CUS-7' }, []])).passed).toBe(true);
    expect(logic([find, orders, inv], tc, out([{ customer_id: 'CUS-7' }, [], {}])).passed).toBe(true);
  });

  it('is validated at import: a $from naming a tool the case does not expect is an error naming the field', () => {
    const bad = TestCaseSchema.safeParse({
      id: 'bad',
      nl_query: 'q',
      expected_tool_calls: [
        { tool_name: 'find_customer', arguments: { email: 'a' } },
        { tool_name: 'list_orders', arguments: { customer_id: from('lookup_customer', '/id') } },
      ],
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [
        'expected_tool_calls.1.arguments.customer_id.$from.call',
        '"lookup_customer" is not among this case\'s expected calls (find_customer, list_orders)',
      ],
    ]);
    const self = TestCaseSchema.safeParse({
      id: 'self',
      nl_query: 'q',
      expected_tool_calls: [{ tool_name: 'list_orders', arguments: { customer_id: from('list_orders', '/id') } }],
    });
    expect(self.error!.issues[0]!.message).toBe('"list_orders" refers to the call itself; a reference names an earlier expected call');
    const badPath = TestCaseSchema.safeParse({
      id: 'p',
      nl_query: 'q',
      expected_tool_calls: [
        { tool_name: 'find_customer', arguments: {} },
        { tool_name: 'list_orders', arguments: { customer_id: from('find_customer', 'id') } },
      ],
    });
    expect(badPath.success).toBe(false);
  });
});

// ----- properties -----

const scalar = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean());
/** a chain of n calls t0..t(n-1): each later call passes one value the previous call returned */
const chain = fc.integer({ min: 2, max: 5 }).chain((n) =>
  fc.record({
    results: fc.array(fc.dictionary(fc.constantFrom('id', 'next', 'code'), scalar, { minKeys: 1 }), { minLength: n, maxLength: n }),
    keys: fc.array(fc.constantFrom('id', 'next', 'code'), { minLength: n, maxLength: n }),
  }),
);

function goldAndTrajectory({ results, keys }: { results: Array<Record<string, JsonValue>>; keys: string[] }) {
  const usable = results.map((r, i) => (keys[i]! in r ? keys[i]! : Object.keys(r)[0]!));
  const expected = results.map((_, i) => ({
    tool_name: `t${i}`,
    arguments: i === 0 ? { q: 'start' } : { v: from(`t${i - 1}`, `/${usable[i - 1]}`) },
  }));
  const calls = results.map((_, i) => call(`t${i}`, i === 0 ? { q: 'start' } : { v: results[i - 1]![usable[i - 1]!] }));
  const tc = TestCaseSchema.parse({ id: 'p', nl_query: 'q', expected_tool_calls: expected });
  return { tc, calls, outcomes: results.map(ok), usable };
}

describe('data flow properties', () => {
  it('a trajectory scored against its own gold passes', () => {
    fc.assert(
      fc.property(chain, (input) => {
        const { tc, calls, outcomes } = goldAndTrajectory(input);
        expect(logic(calls, tc, outcomes)).toMatchObject({ passed: true, score: 1 });
      }),
      { numRuns: 200 },
    );
  });

  it('a reference to a value the call did not return always fails', () => {
    fc.assert(
      fc.property(chain, fc.nat(), scalar, (input, pick, other) => {
        const { tc, calls, outcomes, usable } = goldAndTrajectory(input);
        const i = 1 + (pick % (calls.length - 1));
        const returned = input.results[i - 1]![usable[i - 1]!];
        fc.pre(String(other).trim().toLowerCase() !== String(returned).trim().toLowerCase()); // no coercion could make them equal
        const wrong = calls.map((c, j) => (j === i ? call(c.tool_name, { v: other }) : c));
        const result = logic(wrong, tc, outcomes);
        expect(result.passed).toBe(false);
        expect(result.error_code).toBe('data_flow_mismatch');
      }),
      { numRuns: 200 },
    );
  });
});
