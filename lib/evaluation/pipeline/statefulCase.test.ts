/**
 * Stateful cases, recovery and abstention through the whole waterfall (issue 12): golden results for every new error
 * code, an invalid case (broken gold) not scored, and the state comparison's order independence.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ERROR_CODE_BLAME,
  resolveEvaluationConfig,
  TestCaseSchema,
  type Scorecard,
  type TestCaseInput,
  type Trajectory,
} from '../../domain/index.js';
import { EnvironmentApiProvider, RETAIL_CATALOG } from '../../environments/index.js';
import { evaluateCase } from './evaluateCase.js';

const config = resolveEvaluationConfig({ execution: { enabled: true, provider: 'environment' } });
const deps = { catalogFor: () => RETAIL_CATALOG, apiProvider: new EnvironmentApiProvider() };
const ts = '2026-11-26T00:00:00.000Z';

const refundCase = (extra: Partial<TestCaseInput> = {}) =>
  TestCaseSchema.parse({
    id: 'refund-mug',
    nl_query: 'Refund 12.50 for the chipped mug on order ORD-5001 of ann@example.com',
    expected_tool_calls: [
      { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
      { tool_name: 'list_orders', arguments: { customer_id: { $from: { call: 'find_customer', path: '/customer_id' } } } },
      { tool_name: 'issue_refund', arguments: { order_id: 'ORD-5001', amount: 12.5, reason: 'chipped mug' } },
    ],
    environment: { name: 'retail', initial_state: 'default' },
    ...extra,
  });

type Call = [string, Record<string, unknown>];
const output = (calls: Call[], answer: string | null = 'Done.') => ({
  role: 'assistant',
  content: answer,
  tool_calls: calls.map(([name, args], i) => ({ id: `c${i}`, type: 'function', function: { name, arguments: JSON.stringify(args) } })),
});
const score = (
  testCase: ReturnType<typeof refundCase>,
  calls: Call[],
  answer: string | null = 'Done.',
  trajectory?: Trajectory,
): Promise<Scorecard> =>
  evaluateCase({ runId: 'r', testCase, output: output(calls, answer), timestamp: ts, ...(trajectory ? { trajectory } : {}) }, config, deps);

/** the refund case with an amount stage 2 accepts from 1 to 50; the gold replays its `$value`, 12.50 */
const anyAmount = (environment?: TestCaseInput['environment']) =>
  refundCase({
    expected_tool_calls: refundCase().expected_tool_calls.map((c) =>
      c.tool_name === 'issue_refund' ? { ...c, arguments: { ...c.arguments, amount: { $range: { min: 1, max: 50 }, $value: 12.5 } } } : c,
    ),
    ...(environment ? { environment } : {}),
  });
const FIND: Call = ['find_customer', { email: 'ann@example.com' }];
const LIST: Call = ['list_orders', { customer_id: 'CUS-1001' }];
const REFUND = (amount: number, order = 'ORD-5001'): Call => ['issue_refund', { order_id: order, amount, reason: 'chipped mug' }];

describe('a stateful case in stage 3', () => {
  it('passes when the final state equals the gold replay and the expected calls returned what the gold saw', async () => {
    const card = await score(refundCase(), [FIND, LIST, REFUND(12.5)]);
    expect([card.overall_passed, card.outcome, card.stages.execution.status]).toEqual([true, 'passed', 'passed']);
    expect(card.stages.execution.message).toBe(
      "The final retail state equals the gold's and the 3 expected calls returned what the gold's did.",
    );
    expect(card.api_calls_made).toBe(6); // 3 agent calls + 3 gold calls replayed
  });

  it('state_mismatch with a per-path diff (golden)', async () => {
    const card = await score(anyAmount(), [FIND, LIST, REFUND(20)]);
    // stage 2 accepts an amount from 1 to 50 here; the gold refunds 12.50 (its $value) and the state says so
    expect(card.stages.logic.passed).toBe(true);
    expect([card.overall_passed, card.failing_stage, card.error_code, card.outcome]).toEqual([
      false,
      'execution',
      'state_mismatch',
      'failed',
    ]);
    expect(card.stages.execution.message).toBe(
      "final state differs from the gold's at 2 paths: /orders/ORD-5001/refunded_total expected 12.5, got 20; /refunds/REF-ORD-5001-1/amount expected 12.5, got 20; 1 expected call returned other results than the gold's: issue_refund /amount expected 12.5, got 20",
    );
    const details = card.stages.execution.details as { state: { entries: Array<{ path: string }> } };
    expect(details.state.entries.map((e) => e.path)).toEqual(['/orders/ORD-5001/refunded_total', '/refunds/REF-ORD-5001-1/amount']);
  });

  it('ignores the paths the case says, and data_mismatch when only the results differ', async () => {
    const gold = refundCase({
      expected_tool_calls: [{ tool_name: 'check_inventory', arguments: { sku: { $one_of: ['SKU-MUG', 'SKU-TEA'] } } }],
    });
    const card = await score(gold, [['check_inventory', { sku: 'SKU-TEA' }]]);
    expect([card.stages.logic.passed, card.error_code]).toEqual([true, 'data_mismatch']);
    expect(card.stages.execution.message).toContain(
      '1 expected call returned other results than the gold\'s: check_inventory /sku expected "SKU-MUG", got "SKU-TEA"',
    );
    const noResults = refundCase({ ...gold, environment: { name: 'retail', compare_results: false } });
    expect((await score(noResults, [['check_inventory', { sku: 'SKU-TEA' }]])).overall_passed).toBe(true);
    const ignored = await score(
      anyAmount({ name: 'retail', ignore_paths: ['/orders/ORD-5001/refunded_total', '/refunds/*/amount'], compare_results: false }),
      [FIND, LIST, REFUND(20)],
    );
    expect(ignored.overall_passed).toBe(true);
  });

  it('an alternative call set is replayed as the gold when stage 2 matched it (it may leave another state)', async () => {
    const either = refundCase({
      expected_tool_calls: [{ tool_name: 'reserve_stock', arguments: { sku: 'SKU-MUG', quantity: 2 } }],
      alternative_tool_calls: [[{ tool_name: 'reserve_stock', arguments: { sku: 'SKU-TEA', quantity: 2 } }]],
    });
    const card = await score(either, [['reserve_stock', { sku: 'SKU-TEA', quantity: 2 }]]);
    expect([card.overall_passed, card.stages.execution.status]).toEqual([true, 'passed']);
    const broken = refundCase({
      ...either,
      id: 'alt-broken',
      alternative_tool_calls: [[{ tool_name: 'reserve_stock', arguments: { sku: 'SKU-GRINDER', quantity: 2 } }]],
    });
    expect((await score(broken, [])).stages.syntax.message).toBe(
      'invalid case: alternative call set 0: call #0 reserve_stock {"sku":"SKU-GRINDER","quantity":2} does not replay on retail/default: 409 only 0 of SKU-GRINDER available, 2 asked',
    );
  });

  it('a case whose gold does not replay is reported invalid: not scored, with the reason (golden)', async () => {
    const broken = refundCase({
      id: 'broken',
      expected_tool_calls: [{ tool_name: 'issue_refund', arguments: { order_id: 'ORD-5001', amount: 99, reason: 'too much' } }],
    });
    const card = await score(broken, [REFUND(99)]);
    expect([card.overall_passed, card.outcome, card.failing_stage, card.error_code]).toEqual([
      false,
      'not_scored',
      'syntax',
      'invalid_case',
    ]);
    expect(card.stages.syntax.message).toBe(
      'invalid case: gold call #0 issue_refund {"order_id":"ORD-5001","amount":99,"reason":"too much"} does not replay on retail/default: 422 amount 99 exceeds the refundable 32.25 of order ORD-5001',
    );
    expect(Object.values(card.stages).map((s) => s.status)).toEqual(['error', 'skipped', 'skipped', 'skipped']);
    const unknown = await score(refundCase({ environment: { name: 'retail', initial_state: 'winter' } }), [FIND]);
    expect([unknown.outcome, unknown.stages.syntax.message]).toEqual([
      'not_scored',
      'invalid case: environment "retail" has no initial state "winter" (it has: default, low_stock, empty)',
    ]);
    expect(ERROR_CODE_BLAME.invalid_case).toBe('case');
  });
});

const faultCase = (expect_recovery: 'retry' | 'other_tool' | 'tell_user' | 'any') =>
  refundCase({
    id: `fault-${expect_recovery}`,
    nl_query: 'Refund 12.50 on ORD-5001',
    expected_tool_calls: [
      { tool_name: 'issue_refund', arguments: { order_id: 'ORD-5001', amount: 12.5, reason: 'chipped mug' } },
      { tool_name: 'issue_refund', arguments: { order_id: 'ORD-5001', amount: 12.5, reason: 'chipped mug' } },
    ],
    environment: { name: 'retail', faults: [{ tool: 'issue_refund', occurrence: 1, kind: 'error', expect_recovery }] },
  });

describe('recovery from a scripted API failure', () => {
  it('a retry recovers: passes, and the state shows one refund', async () => {
    const card = await score(faultCase('retry'), [REFUND(12.5), REFUND(12.5)]);
    expect([card.overall_passed, card.stages.execution.status]).toEqual([true, 'passed']);
  });

  it("missing_recovery: the agent gave up silently (golden); it is the model's failure, not infrastructure", async () => {
    const card = await score(faultCase('retry'), [REFUND(12.5)], 'The refund is done.');
    expect([card.failing_stage, card.error_code, card.outcome]).toEqual(['logic', 'missing_recovery', 'failed']);
    expect(card.stages.logic.message).toBe(
      'issue_refund failed at call 1 (scripted error) and the agent did not retry it (answer: "The refund is done."); 1 expected call missing: issue_refund',
    );
  });

  it('telling the user counts when the case allows it; claiming success does not', async () => {
    const tell = faultCase('tell_user');
    const told = await score(
      refundCase({ ...tell, expected_tool_calls: [tell.expected_tool_calls[0]!] }),
      [REFUND(12.5)],
      'Sorry, the refund service is unavailable right now.',
    );
    expect(told.stages.logic).toMatchObject({ passed: true });
    const claimed = await score(refundCase({ ...tell, expected_tool_calls: [tell.expected_tool_calls[0]!] }), [REFUND(12.5)], 'Refunded!');
    expect(claimed.error_code).toBe('missing_recovery');
  });
});

const abstain = (reason: 'missing_parameter' | 'irrelevant', asks_for?: string[]) =>
  TestCaseSchema.parse({
    id: `abstain-${reason}`,
    nl_query: reason === 'irrelevant' ? 'Write me a poem about tea' : 'Refund my order',
    expected_tool_calls: [],
    abstention: { reason, ...(asks_for ? { asks_for } : {}) },
  });
const logicOnly = resolveEvaluationConfig({});

describe('abstention (golden per error code)', () => {
  const run = (testCase: ReturnType<typeof abstain>, calls: Call[], answer: string | null) =>
    evaluateCase({ runId: 'r', testCase, output: output(calls, answer), timestamp: ts }, logicOnly, {});

  it('called_when_irrelevant', async () => {
    const card = await run(abstain('irrelevant'), [['check_inventory', { sku: 'SKU-TEA' }]], 'Here is a poem.');
    expect([card.error_code, card.outcome, card.stages.logic.message]).toEqual([
      'called_when_irrelevant',
      'failed',
      'the request is outside what the tools are for, but 1 call was made: check_inventory; expected no tool call (abstain), got 1: check_inventory',
    ]);
    expect((await run(abstain('irrelevant'), [], 'Tea leaves unfurl...')).overall_passed).toBe(true);
  });

  it('called_instead_of_clarifying, missing_clarification, and a question back passes', async () => {
    const ask = abstain('missing_parameter', ['order id', 'order number']);
    const called = await run(ask, [REFUND(5)], null);
    expect([called.error_code, called.stages.logic.message?.split(';')[0]]).toEqual([
      'called_instead_of_clarifying',
      'the question lacks a required parameter (order id or order number): the agent should have asked for it, but 1 call was made: issue_refund',
    ]);
    const silent = await run(ask, [], 'I have refunded your order.');
    expect([silent.error_code, silent.stages.logic.message]).toEqual([
      'missing_clarification',
      'the question lacks a required parameter (order id or order number); the agent made no call but did not ask for it either (answer: "I have refunded your order.")',
    ]);
    expect((await run(ask, [], 'Which order? Please give me the order number.')).overall_passed).toBe(true);
    expect((await run(ask, [], 'Which one?')).error_code).toBe('missing_clarification'); // asks, but not for the missing parameter
  });

  it('clarified_instead_of_calling: the question had everything, the agent asked back', async () => {
    const card = await run(refundCase(), [], 'Which order do you mean?');
    expect([card.error_code, card.stages.logic.message?.split(';')[0]]).toEqual([
      'clarified_instead_of_calling',
      'the question had what the calls need (find_customer, list_orders, issue_refund), but the agent asked back: "Which order do you mean?"',
    ]);
    for (const code of [
      'called_when_irrelevant',
      'called_instead_of_clarifying',
      'missing_clarification',
      'clarified_instead_of_calling',
      'missing_recovery',
      'state_mismatch',
    ] as const) {
      expect(ERROR_CODE_BLAME[code]).toBe('model');
    }
  });

  it('an abstention case must expect no call (import error naming the field)', () => {
    const bad = TestCaseSchema.safeParse({
      id: 'x',
      nl_query: 'q',
      expected_tool_calls: [{ tool_name: 'a' }],
      abstention: { reason: 'irrelevant' },
    });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['abstention', 'says no call is the right answer (irrelevant) but expected_tool_calls has 1'],
    ]);
  });
});

describe('data flow with a stateful case and no trajectory: results come from replaying the calls', () => {
  it('a $from argument is checked against what the environment returned', async () => {
    const card = await score(refundCase(), [FIND, ['list_orders', { customer_id: 'CUS-1002' }], REFUND(12.5)]);
    expect([card.error_code, card.stages.logic.message]).toEqual([
      'data_flow_mismatch',
      'list_orders: /customer_id passed "CUS-1002" where find_customer returned "CUS-1001" at /customer_id',
    ]);
  });
});

describe('state comparison is order-independent where the environment is (property)', () => {
  const ops: Call[] = [
    REFUND(5, 'ORD-5001'),
    REFUND(7, 'ORD-5002'),
    ['reserve_stock', { sku: 'SKU-TEA', quantity: 3 }],
    ['create_ticket', { customer_id: 'CUS-1004', subject: 'hello' }],
  ];
  const gold = TestCaseSchema.parse({
    id: 'many',
    nl_query: 'do four things',
    expected_tool_calls: ops.map(([tool_name, args]) => ({ tool_name, arguments: args })),
    environment: { name: 'retail' },
  });
  it('any permutation of independent calls passes stage 3 against the gold in its order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(ops, { minLength: ops.length, maxLength: ops.length }), async (perm) => {
        const card = await score(gold, perm);
        expect(card.stages.execution.status).toBe('passed');
      }),
      { numRuns: 24 },
    );
  });
});
