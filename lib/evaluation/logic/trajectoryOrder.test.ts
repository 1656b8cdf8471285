import { describe, expect, it } from 'vitest';
import { COERCION_POLICIES } from '../../domain/coercionPolicy.js';
import { TestCaseSchema } from '../../domain/testCase.js';
import { runLogicStage } from './runLogicStage.js';
import { call, testCase } from './testCases.test-helpers.js';

const policy = COERCION_POLICIES.default;
const logic = (actual: ReturnType<typeof call>[], tc: ReturnType<typeof testCase>) => runLogicStage(actual, tc, { policy }).result;

// an agent that looks a customer up, then lists their orders with the id it got back, and checks the weather
const expected = [
  { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
  { tool_name: 'list_orders', arguments: { customer_id: 'C-42' }, depends_on: [0] },
  { tool_name: 'get_weather', arguments: { city: 'Paris' } },
];
const find = call('find_customer', { email: 'ann@example.com' });
const orders = call('list_orders', { customer_id: 'C-42' });
const weather = call('get_weather', { city: 'Paris' });

describe('stage 2 trajectory rules: any, strict and dependency order over every call the agent made', () => {
  it('any order: the calls in any order pass', () => {
    const tc = testCase({ expected_tool_calls: expected, call_order: 'any' });
    expect(logic([weather, orders, find], tc)).toMatchObject({ passed: true, score: 1 });
  });

  it('strict order: exactly the listed order passes; anything else is wrong_order with partial credit', () => {
    const tc = testCase({ expected_tool_calls: expected, call_order: 'strict' });
    expect(logic([find, orders, weather], tc)).toMatchObject({ passed: true, score: 1 });
    const swapped = logic([weather, find, orders], tc);
    expect(swapped).toMatchObject({ passed: false, error_code: 'wrong_order' });
    expect(swapped.score).toBeCloseTo(2 / 3, 10); // the best order-keeping pairing keeps 2 of 3 calls: P = R = F1 = 2/3
  });

  it('dependency order: independent calls may move; a call before the call whose result it uses fails with wrong_order', () => {
    const tc = testCase({ expected_tool_calls: expected, call_order: 'dependency' });
    // weather first or last does not matter: it depends on nothing
    expect(logic([weather, find, orders], tc)).toMatchObject({ passed: true, score: 1 });
    expect(logic([find, weather, orders], tc)).toMatchObject({ passed: true, score: 1 });
    const early = logic([orders, weather, find], tc);
    expect(early).toMatchObject({
      passed: false,
      error_code: 'wrong_order',
      message: 'list_orders was called before find_customer, whose result it uses',
    });
    // the early call loses its credit: TP = 2 of 3 calls -> P = R = F1 = 2/3
    expect(early.score).toBeCloseTo(2 / 3, 10);
  });

  it('dependency order with another mistake reports that mistake and notes the order problem', () => {
    const tc = testCase({ expected_tool_calls: expected, call_order: 'dependency' });
    const result = logic([call('list_orders', { customer_id: 'C-7' }), find, weather], tc);
    expect(result.passed).toBe(false);
    expect(result.error_code).toBe('argument_mismatch');
    expect(result.message).toContain('calls also made before the calls whose results they use');
  });

  it('a dependency on a call that was never made is reported as the missing call, not as an order problem', () => {
    const tc = testCase({ expected_tool_calls: expected, call_order: 'dependency' });
    expect(logic([orders, weather], tc)).toMatchObject({ passed: false, error_code: 'missing_call' });
  });

  it('without depends_on, dependency order is any order', () => {
    const tc = testCase({ expected_tool_calls: expected.map(({ depends_on: _d, ...rest }) => rest), call_order: 'dependency' });
    expect(logic([orders, weather, find], tc)).toMatchObject({ passed: true, score: 1 });
  });

  it('depends_on must name another call of the same list', () => {
    const parsed = TestCaseSchema.safeParse({
      id: 'x',
      nl_query: 'q',
      expected_tool_calls: [
        { tool_name: 'a', depends_on: [0] },
        { tool_name: 'b', depends_on: [5] },
      ],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual([
      'expected_tool_calls.0.depends_on.0',
      'expected_tool_calls.1.depends_on.0',
    ]);
  });
});
