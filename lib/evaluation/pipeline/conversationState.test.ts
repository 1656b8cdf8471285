/**
 * Stateful conversations (issue 12): stage 3 compares CUMULATIVE state per turn, as BFCL v3 multi-turn does (the
 * agent's calls of turns 1..i against the gold of turns 1..i, both from the case's initial state), the gold is
 * validated over the whole conversation, and scripted faults count the calls of the whole conversation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  resolveEvaluationConfig,
  TestCaseSchema,
  type ConversationTurnInput,
  type Scorecard,
  type TestCaseInput,
} from '../../domain/index.js';
import { EnvironmentApiProvider, RETAIL_CATALOG } from '../../environments/index.js';
import { invalidCaseReason } from '../execution/index.js';
import { evaluateCase } from './evaluateCase.js';

const config = resolveEvaluationConfig({ execution: { enabled: true, provider: 'environment' } });
const deps = { catalogFor: () => RETAIL_CATALOG, apiProvider: new EnvironmentApiProvider() };
const ts = '2026-11-26T00:00:00.000Z';

type Call = { tool_name: string; arguments: Record<string, unknown> };
const conversation = (turns: ConversationTurnInput[], environment: TestCaseInput['environment'] = { name: 'retail' }) =>
  TestCaseSchema.parse({ id: 'conv-state', turns, environment });
const message = (calls: readonly Call[], content = 'Done.') => ({
  role: 'assistant',
  content,
  ...(calls.length
    ? {
        tool_calls: calls.map((c, i) => ({
          id: `call_${i}`,
          type: 'function',
          function: { name: c.tool_name, arguments: JSON.stringify(c.arguments) },
        })),
      }
    : {}),
});
const score = (testCase: ReturnType<typeof conversation>, perTurn: ReadonlyArray<readonly Call[]>): Promise<Scorecard> =>
  evaluateCase(
    { runId: 'r', testCase, output: null, timestamp: ts, turns: perTurn.map((calls) => ({ output: message(calls) })) },
    config,
    deps,
  );

const cancel = (order: string): Call => ({ tool_name: 'cancel_order', arguments: { order_id: order } });
const refund = (order: string, amount: unknown): Call => ({
  tool_name: 'issue_refund',
  arguments: { order_id: order, amount, reason: 'damaged' },
});
const getOrder = (order: string): Call => ({ tool_name: 'get_order', arguments: { order_id: order } });
const reserve = (sku: string, quantity: number): Call => ({ tool_name: 'reserve_stock', arguments: { sku, quantity } });
const inventory = (sku: string): Call => ({ tool_name: 'check_inventory', arguments: { sku } });
const MUTATIONS = new Set(['cancel_order', 'issue_refund', 'reserve_stock']);

/** cancel then "what is its status now?": turn 2's gold reads the state turn 1 left */
const cancelThenStatus = conversation([
  { user: 'Cancel ORD-5003, I ordered it by mistake.', expected_tool_calls: [cancel('ORD-5003')] },
  { user: 'What is the status of ORD-5003 now?', expected_tool_calls: [getOrder('ORD-5003')] },
]);

/** refund 10, then "refund the rest" (any amount passes stage 2; the state after both turns decides) */
const refundThenRest = conversation([
  { user: 'Refund 10 on ORD-5001.', expected_tool_calls: [refund('ORD-5001', 10)] },
  {
    user: 'Now refund whatever is still refundable on ORD-5001.',
    expected_tool_calls: [refund('ORD-5001', { $range: { min: 0.01, max: 32.25 }, $value: 22.25 })],
  },
]);

describe('cumulative state per turn (stage 3 of a conversation)', () => {
  it('a conversation scored against its own gold passes; turn 2 is compared on the state turn 1 left', async () => {
    const card = await score(cancelThenStatus, [[cancel('ORD-5003')], [getOrder('ORD-5003')]]);
    expect([card.overall_passed, card.turns?.map((t) => t.stages.execution.status)]).toEqual([true, ['passed', 'passed']]);
    expect(card.turns?.[1]?.stages.execution.message).toBe(
      "The retail state after turn 2 (turns 1-2 replayed) equals the gold's and the 1 expected calls returned what the gold's did.",
    );
    expect(card.turns?.[1]?.stages.execution.details).toMatchObject({ turn: 1, gold_calls: 2, agent_calls: 2 });
  });

  it('property: any replayable conversation scored against its own gold passes every turn', async () => {
    const step = fc.oneof(
      fc.constantFrom('ORD-5003', 'ORD-5005').map(cancel),
      fc.tuple(fc.constantFrom('ORD-5001', 'ORD-5002', 'ORD-5004', 'ORD-5007'), fc.constantFrom(1, 2.5, 5)).map(([o, a]) => refund(o, a)),
      fc.tuple(fc.constantFrom('SKU-MUG', 'SKU-KETTLE', 'SKU-TEA'), fc.integer({ min: 1, max: 3 })).map(([s, q]) => reserve(s, q)),
      fc.constantFrom('ORD-5001', 'ORD-5003', 'ORD-5005').map(getOrder),
      fc.constantFrom('SKU-MUG', 'SKU-KETTLE').map(inventory),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(step, { minLength: 1, maxLength: 2 }), { minLength: 2, maxLength: 4 }), async (turns) => {
        const tc = conversation(turns.map((calls, i) => ({ user: `turn ${i + 1}`, expected_tool_calls: calls })));
        fc.pre(invalidCaseReason(tc) === undefined); // a second cancellation of one order, a refund over the refundable
        const card = await score(tc, turns);
        expect(card.turns?.map((t) => [t.passed, t.stages.execution.status])).toEqual(turns.map(() => [true, 'passed']));
      }),
      { numRuns: 40 },
    );
  });

  it('property: an agent that skips a mutation of turn k fails turn k on state, and is reported at turn k, not later', async () => {
    const mutation = fc.oneof(
      fc.constantFrom('ORD-5003', 'ORD-5005').map(cancel),
      fc.tuple(fc.constantFrom('ORD-5001', 'ORD-5002'), fc.constantFrom(1, 5)).map(([o, a]) => refund(o, a)),
      fc.tuple(fc.constantFrom('SKU-MUG', 'SKU-TEA'), fc.integer({ min: 1, max: 3 })).map(([s, q]) => reserve(s, q)),
    );
    const read = fc.oneof(fc.constantFrom('ORD-5001', 'ORD-5003').map(getOrder), fc.constantFrom('SKU-MUG', 'SKU-TEA').map(inventory));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(mutation, fc.option(read, { nil: undefined })), { minLength: 2, maxLength: 4 }),
        fc.nat(),
        async (drafts, pick) => {
          const turns = drafts.map(([m, r]) => (r ? [m, r] : [m]));
          const tc = conversation(turns.map((calls, i) => ({ user: `turn ${i + 1}`, expected_tool_calls: calls })));
          fc.pre(invalidCaseReason(tc) === undefined);
          const k = pick % turns.length;
          const agent = turns.map((calls, i) => (i === k ? calls.filter((c) => !MUTATIONS.has(c.tool_name)) : calls));
          const card = await score(tc, agent);
          expect([card.overall_passed, card.failing_turn]).toEqual([false, k]);
          expect(card.turns!.slice(0, k).every((t) => t.passed)).toBe(true);
          expect(card.turns![k]!.stages.execution.error_code).toBe('state_mismatch');
        },
      ),
      { numRuns: 30 },
    );
  });

  it('a turn-2 call that ignores turn 1 (refunds what was refundable before it) fails turn 2: state diff and result diff (golden)', async () => {
    const card = await score(refundThenRest, [[refund('ORD-5001', 10)], [refund('ORD-5001', 32.25)]]);
    // stage 2 accepts 32.25 (in the range); on the state turn 1 left, the API rejects it
    expect([card.turns?.[1]?.stages.logic.passed, card.failing_turn, card.failing_stage, card.error_code]).toEqual([
      true,
      1,
      'execution',
      'state_mismatch',
    ]);
    expect(card.turns?.[0]?.passed).toBe(true);
    const execution = card.turns![1]!.stages.execution;
    expect(execution.message).toBe(
      "state after turn 2 differs from the gold's at 2 paths: /orders/ORD-5001/refunded_total expected 32.25, got 10; " +
        '/refunds/REF-ORD-5001-2 missing (expected {"id":"REF-ORD-5001-2","order_id":"ORD-5001","amount":22.25,…); ' +
        '1 expected call returned other results than the gold\'s: issue_refund /refund_id missing (expected "REF-ORD-5001-2")',
    );
    expect(card.stages.execution.message).toMatch(/^turn 2 of 2: state after turn 2 differs/);
    expect((execution.details as { results: unknown[] }).results).toEqual([
      expect.objectContaining({ tool_name: 'issue_refund', status: 'mismatch', expected_index: 0, actual_index: 0 }),
    ]);
  });

  it('a `$from` in turn 2 is checked against what the call returned on the state turn 1 left (recorded output, no trajectory)', async () => {
    const tc = conversation([
      { user: 'Refund 10 on ORD-5001.', expected_tool_calls: [refund('ORD-5001', 10)] },
      {
        user: 'Refund whatever is still refundable on ORD-5001.',
        expected_tool_calls: [getOrder('ORD-5001'), refund('ORD-5001', { $from: { call: 'get_order', path: '/refundable' } })],
      },
    ]);
    expect((await score(tc, [[refund('ORD-5001', 10)], [getOrder('ORD-5001'), refund('ORD-5001', 22.25)]])).overall_passed).toBe(true);
    const stale = await score(tc, [[refund('ORD-5001', 10)], [getOrder('ORD-5001'), refund('ORD-5001', 32.25)]]);
    expect([stale.failing_turn, stale.error_code]).toEqual([1, 'data_flow_mismatch']);
    expect(stale.turns?.[1]?.stages.logic.message).toContain('/amount passed 32.25 where get_order returned 22.25 at /refundable');
  });

  it('"what is its status now?": the expected results are the gold’s after the earlier turns, and the judge gets that data', async () => {
    const card = await score(cancelThenStatus, [[cancel('ORD-5003')], [getOrder('ORD-5003')]]);
    expect(card.turns?.[1]?.passed).toBe(true);
    // an agent that did not cancel in turn 1 reads "placed" in turn 2: turn 1 fails (reported), turn 2 fails too
    const stale = await score(cancelThenStatus, [[], [getOrder('ORD-5003')]]);
    expect([stale.failing_turn, stale.turns?.[1]?.stages.execution.error_code]).toEqual([0, 'state_mismatch']);
    expect(stale.turns?.[1]?.stages.execution.message).toContain('get_order /status expected "cancelled", got "placed"');
  });
});

describe('gold validation over the whole conversation', () => {
  it('a gold whose turn-3 calls fail because of turn-2 state is invalid_case naming the turn (not scored)', async () => {
    const tc = conversation([
      { user: 'How much is refundable on ORD-5001?', expected_tool_calls: [getOrder('ORD-5001')] },
      { user: 'Refund 20 of it.', expected_tool_calls: [refund('ORD-5001', 20)] },
      { user: 'And another 20.', expected_tool_calls: [refund('ORD-5001', 20)] },
    ]);
    expect(invalidCaseReason(tc)).toBe(
      'turn 3 of 3: gold (after the gold of turns 1-2) call #0 issue_refund {"order_id":"ORD-5001","amount":20,"reason":"damaged"} does not replay on retail/default: 422 amount 20 exceeds the refundable 12.25 of order ORD-5001',
    );
    const card = await score(tc, [[getOrder('ORD-5001')], [refund('ORD-5001', 20)], [refund('ORD-5001', 20)]]);
    expect([card.outcome, card.error_code, card.stages.syntax.message]).toEqual([
      'not_scored',
      'invalid_case',
      `invalid case: ${invalidCaseReason(tc)}`,
    ]);
  });

  it('a gold that replays only on the state earlier turns left is valid (turn 2 closes the ticket turn 1 opened)', async () => {
    const open = { tool_name: 'create_ticket', arguments: { customer_id: 'CUS-1001', subject: 'late delivery' } };
    const close = { tool_name: 'update_ticket', arguments: { ticket_id: 'TCK-CUS-1001-1', status: 'closed' } };
    const tc = conversation([
      { user: 'Open a ticket for CUS-1001: late delivery.', expected_tool_calls: [open] },
      { user: 'It arrived after all, close that ticket.', expected_tool_calls: [close] },
    ]);
    expect(invalidCaseReason(tc)).toBeUndefined();
    expect((await score(tc, [[open], [close]])).overall_passed).toBe(true);
    // an alternative set of a later turn is validated after the expected calls of the turns before it
    const withAlternative = conversation([
      { user: 'Open a ticket for CUS-1001: late delivery.', expected_tool_calls: [open] },
      {
        user: 'Close it.',
        expected_tool_calls: [close],
        alternative_tool_calls: [[{ tool_name: 'update_ticket', arguments: { ticket_id: 'TCK-CUS-1001-2', status: 'closed' } }]],
      },
    ]);
    expect(invalidCaseReason(withAlternative)).toMatch(
      /^turn 2 of 2: alternative call set 0: \(after the gold of turn 1\) call #0 update_ticket .* 404/,
    );
  });
});

describe('scripted faults count the calls of the whole conversation', () => {
  const flaky = conversation(
    [
      { user: 'Refund 5 on ORD-5001.', expected_tool_calls: [refund('ORD-5001', 5)] },
      { user: 'Refund another 5 on ORD-5001.', expected_tool_calls: [refund('ORD-5001', 5), refund('ORD-5001', 5)] },
    ],
    { name: 'retail', faults: [{ tool: 'issue_refund', occurrence: 2, kind: 'error', status: 503, expect_recovery: 'retry' }] },
  );

  it('the 2nd refund of the conversation (the first of turn 2) gets the fault; a retry in turn 2 passes', async () => {
    expect(invalidCaseReason(flaky)).toBeUndefined();
    const card = await score(flaky, [[refund('ORD-5001', 5)], [refund('ORD-5001', 5), refund('ORD-5001', 5)]]);
    expect([card.overall_passed, card.turns?.map((t) => t.passed)]).toEqual([true, [true, true]]);
  });

  it('no retry after it: missing_recovery at turn 2, naming the call of the conversation', async () => {
    const card = await score(flaky, [[refund('ORD-5001', 5)], [refund('ORD-5001', 5)]]);
    expect([card.failing_turn, card.error_code]).toEqual([1, 'missing_recovery']);
    expect(card.turns?.[1]?.stages.logic.message).toContain('issue_refund failed at call 2 of the conversation (scripted error)');
  });
});
