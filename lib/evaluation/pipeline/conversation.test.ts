import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  outcomeKindOf,
  resolveEvaluationConfig,
  ScorecardSchema,
  TestCaseSchema,
  type ConversationTurnInput,
  type Trajectory,
} from '../../domain/index.js';
import { ExpectedDataProvider } from '../execution/index.js';
import { LocalReferenceJudge } from '../../judges/index.js';
import { evaluateCase } from './evaluateCase.js';

const ts = '2026-11-26T00:00:00.000Z';
const ci = resolveEvaluationConfig({ profile: 'ci' });

/** A chat-completions assistant message with these calls and this text: what an OpenAI target's turn output looks like. */
function message(calls: Array<{ tool_name: string; arguments: Record<string, unknown> }>, content: string | null) {
  return {
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
  };
}

const conversation = (turns: ConversationTurnInput[]) =>
  TestCaseSchema.parse({ id: 'conv-1', turns, metadata: { category: 'refunds', tags: ['conversation'] } });

const refundTurns: ConversationTurnInput[] = [
  {
    user: 'Show my last order, I am customer C-7.',
    expected_tool_calls: [{ tool_name: 'list_orders', arguments: { customer_id: 'C-7', limit: 1 } }],
  },
  { user: 'Refund an item of it.', expect_clarification: true },
  { user: 'The second item.', expected_tool_calls: [{ tool_name: 'refund_item', arguments: { order_id: 'O-9', item: 2 } }] },
];

describe('conversation cases through the pipeline', () => {
  it('a conversation answered turn by turn as its gold says passes, with one result per turn', async () => {
    const card = await evaluateCase(
      {
        runId: 'r1',
        testCase: conversation(refundTurns),
        output: null,
        timestamp: ts,
        turns: [
          { output: message([{ tool_name: 'list_orders', arguments: { customer_id: 'C-7', limit: 1 } }], null) },
          { output: message([], 'Which item of order O-9 should I refund?') },
          { output: message([{ tool_name: 'refund_item', arguments: { order_id: 'O-9', item: 2 } }], 'Refunded.') },
        ],
      },
      ci,
    );
    expect(ScorecardSchema.parse(card)).toEqual(card);
    expect(card.overall_passed).toBe(true);
    expect(card.outcome).toBe('passed');
    expect(card.turns?.map((t) => t.passed)).toEqual([true, true, true]);
    expect(card.failing_turn).toBeUndefined();
    expect(card.generated_tool_calls.map((c) => c.tool_name)).toEqual(['list_orders', 'refund_item']);
    expect(card.efficiency).toMatchObject({ calls_made: 2, calls_needed: 2, redundant_calls: 0, conversation_turns: 3, score: 1 });
    expect(card.tool_results.map((r) => [r.tool_name, r.expected_calls, r.matched_calls, r.passed])).toEqual([
      ['list_orders', 1, 1, true],
      ['refund_item', 1, 1, true],
    ]);
  });

  it('property: any conversation scored against its own gold passes every turn', async () => {
    const value = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -1000, max: 1000 }), fc.boolean());
    const call = fc.record({
      tool_name: fc.constantFrom('find_customer', 'list_orders', 'refund_item', 'open_ticket'),
      arguments: fc.dictionary(fc.constantFrom('id', 'limit', 'note', 'item'), value, { maxKeys: 3 }),
    });
    const turn = fc.oneof(
      fc.record({ user: fc.string({ minLength: 1, maxLength: 20 }), expected_tool_calls: fc.array(call, { maxLength: 3 }) }),
      fc.record({ user: fc.string({ minLength: 1, maxLength: 20 }), expect_clarification: fc.constant(true) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 4 }), async (turns) => {
        const testCase = conversation(turns as ConversationTurnInput[]);
        const outputs = testCase.turns!.map((t) =>
          t.expect_clarification
            ? { output: message([], 'Which one do you mean?') }
            : { output: message(t.expected_tool_calls as never, 'Done.') },
        );
        const card = await evaluateCase({ runId: 'r', testCase, output: null, turns: outputs, timestamp: ts }, ci);
        expect(card.turns?.every((t) => t.passed)).toBe(true);
        expect(card.overall_passed).toBe(true);
        expect(card.efficiency?.score).toBe(1);
        expect(card.efficiency?.calls_made).toBe(card.efficiency?.calls_needed);
      }),
      { numRuns: 150 },
    );
  });

  it('the first failing turn gives failing_turn, failing_stage and error_code; later turns are still scored', async () => {
    const card = await evaluateCase(
      {
        runId: 'r1',
        testCase: conversation(refundTurns),
        output: null,
        turns: [
          { output: message([{ tool_name: 'list_orders', arguments: { customer_id: 'C-7', limit: 1 } }], null) },
          { output: message([{ tool_name: 'refund_item', arguments: { order_id: 'O-9', item: 1 } }], 'Refunded item 1.') },
          { output: message([{ tool_name: 'refund_item', arguments: { order_id: 'O-9', item: 3 } }], 'Refunded.') },
        ],
      },
      ci,
    );
    expect(card.overall_passed).toBe(false);
    expect(card.failing_turn).toBe(1);
    expect(card.failing_stage).toBe('logic');
    expect(card.error_code).toBe('called_instead_of_clarifying');
    expect(card.outcome).toBe('failed');
    expect(card.turns?.[2]).toMatchObject({ passed: false, error_code: 'argument_mismatch' });
    expect(card.stages.logic.message).toMatch(/^turn 2 of 3: /);
    expect(card.overall_score).toBeLessThan(1);
  });
});

describe('golden: the new error codes', () => {
  const golden = async (turns: ConversationTurnInput[], outputs: unknown[], config = ci) =>
    evaluateCase(
      { runId: 'g', testCase: conversation(turns), output: null, turns: outputs.map((output) => ({ output })), timestamp: ts },
      config,
    );

  it('called_instead_of_clarifying: the turn lacks what is needed and the agent guesses', async () => {
    const card = await golden(
      [{ user: 'Refund my order.', expect_clarification: true }],
      [message([{ tool_name: 'refund_order', arguments: { order_id: 'O-1' } }], null)],
    );
    expect([card.failing_turn, card.failing_stage, card.error_code, outcomeKindOf(card)]).toEqual([
      0,
      'logic',
      'called_instead_of_clarifying',
      'failed',
    ]);
    expect(card.stages.logic.message).toContain('the agent called refund_order');
  });

  it('clarified_instead_of_calling: everything needed is there and the agent asks anyway', async () => {
    const card = await golden(
      [{ user: 'Refund order O-1.', expected_tool_calls: [{ tool_name: 'refund_order', arguments: { order_id: 'O-1' } }] }],
      [message([], 'Which order would you like refunded?')],
    );
    expect([card.failing_turn, card.failing_stage, card.error_code, outcomeKindOf(card)]).toEqual([
      0,
      'logic',
      'clarified_instead_of_calling',
      'failed',
    ]);
  });

  it('a turn that expects calls and gets no call and no question stays missing_call', async () => {
    const card = await golden(
      [{ user: 'Refund order O-1.', expected_tool_calls: [{ tool_name: 'refund_order', arguments: { order_id: 'O-1' } }] }],
      [message([], 'Done, refunded.')],
    );
    expect(card.error_code).toBe('missing_call');
  });

  it('missing_clarification: the agent neither calls nor asks', async () => {
    const card = await golden([{ user: 'Refund my order.', expect_clarification: true }], [message([], 'Your refund is on its way.')]);
    expect([card.failing_stage, card.error_code, outcomeKindOf(card)]).toEqual(['logic', 'missing_clarification', 'failed']);
  });

  it('redundant_call: only with fail_on_redundant_calls, in the turn that repeated the call; efficiency counts it either way', async () => {
    const lookup = { tool_name: 'find_customer', arguments: { email: 'a@x.io' } };
    const step = (turn: number, id: string) => ({
      kind: 'tool_call' as const,
      turn,
      call_id: id,
      tool_name: 'find_customer',
      arguments: { email: 'a@x.io' },
      executed: true,
      ok: true,
      result: { id: 'CUS-7' },
      latency_ms: 1,
    });
    const trajectory = (steps: Trajectory['steps'], turns: number): Trajectory => ({ steps, turns, stop: 'answered' });
    const testCase = conversation([
      { user: 'Who is a@x.io?', expected_tool_calls: [lookup] },
      { user: 'And their id again?', expected_tool_calls: [] },
    ]);
    const turns = [
      { output: message([lookup], 'CUS-7'), trajectory: trajectory([step(1, 'a')], 2) },
      { output: message([lookup], 'CUS-7'), trajectory: trajectory([step(1, 'b')], 2) },
    ];
    const lenient = await evaluateCase({ runId: 'g', testCase, output: null, turns, timestamp: ts }, ci);
    expect(lenient.efficiency).toMatchObject({ calls_made: 2, calls_needed: 1, redundant_calls: 1, model_turns: 4, score: 0.5 });
    expect(lenient.error_code).toBe('unexpected_call'); // turn 2 expected no call: a correctness failure regardless of the flag
    const strictConfig = resolveEvaluationConfig({ profile: 'ci', fail_on_redundant_calls: true });
    const single = TestCaseSchema.parse({ id: 's', nl_query: 'Who is a@x.io?', expected_tool_calls: [lookup, lookup] });
    const output = message([lookup, lookup], 'CUS-7');
    const both = trajectory([step(1, 'a'), step(1, 'b')], 2);
    const passes = await evaluateCase({ runId: 'g', testCase: single, output, trajectory: both, timestamp: ts }, ci);
    expect(passes.overall_passed).toBe(true);
    expect(passes.efficiency?.redundant_calls).toBe(1);
    const fails = await evaluateCase({ runId: 'g', testCase: single, output, trajectory: both, timestamp: ts }, strictConfig);
    expect([fails.overall_passed, fails.failing_stage, fails.error_code, outcomeKindOf(fails)]).toEqual([
      false,
      'logic',
      'redundant_call',
      'failed',
    ]);
    // the same call with a different result is not redundant (the state changed in between)
    const changed = trajectory([step(1, 'a'), { ...step(1, 'b'), result: { id: 'CUS-8' } }], 2);
    const fresh = await evaluateCase({ runId: 'g', testCase: single, output, trajectory: changed, timestamp: ts }, strictConfig);
    expect(fresh.overall_passed).toBe(true);
    expect(fresh.efficiency?.redundant_calls).toBe(0);
  });

  it('a redundant repeat the gold does not expect costs efficiency, not correctness (unless fail_on_redundant_calls)', async () => {
    const lookup = { tool_name: 'find_customer', arguments: { email: 'a@x.io' } };
    const step = (id: string, result: { id: string }) => ({
      kind: 'tool_call' as const,
      turn: 1,
      call_id: id,
      tool_name: 'find_customer',
      arguments: { email: 'a@x.io' },
      executed: true,
      ok: true,
      result,
      latency_ms: 1,
    });
    const once = TestCaseSchema.parse({ id: 'once', nl_query: 'Who is a@x.io?', expected_tool_calls: [lookup] });
    const output = message([lookup, lookup], 'CUS-7');
    const repeated: Trajectory = { steps: [step('a', { id: 'CUS-7' }), step('b', { id: 'CUS-7' })], turns: 3, stop: 'answered' };
    const lenient = await evaluateCase({ runId: 'g', testCase: once, output, trajectory: repeated, timestamp: ts }, ci);
    expect([lenient.overall_passed, lenient.efficiency?.redundant_calls, lenient.efficiency?.score]).toEqual([true, 1, 0.5]);
    const strict = resolveEvaluationConfig({ profile: 'ci', fail_on_redundant_calls: true });
    const failed = await evaluateCase({ runId: 'g', testCase: once, output, trajectory: repeated, timestamp: ts }, strict);
    expect([failed.overall_passed, failed.error_code]).toEqual([false, 'redundant_call']);
    // a second call that got another result is not a repeat: the case expected one call, so it is an extra call
    const changed: Trajectory = { ...repeated, steps: [step('a', { id: 'CUS-7' }), step('b', { id: 'CUS-8' })] };
    const extra = await evaluateCase({ runId: 'g', testCase: once, output, trajectory: changed, timestamp: ts }, ci);
    expect([extra.overall_passed, extra.error_code]).toEqual([false, 'extra_call']);
  });

  it('a target that gave no output per turn leaves the conversation not scored, never a model failure', async () => {
    const card = await evaluateCase({ runId: 'g', testCase: conversation(refundTurns), output: message([], 'hi'), timestamp: ts }, ci);
    expect([card.overall_passed, card.error_code, card.outcome]).toEqual([false, 'target_error', 'not_scored']);
    expect(card.stages.syntax.message).toContain('not one per turn');
    expect(card.efficiency).toBeUndefined();
  });

  it("stages 3 and 4 run per turn against each turn's own expected data and answer", async () => {
    const nightly = resolveEvaluationConfig({ profile: 'nightly' });
    const testCase = conversation([
      {
        user: 'Status of order A-1?',
        expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: 'A-1' } }],
        expected_raw_data: [{ status: 'shipped' }],
        expected_nl_response: 'Order A-1 has shipped.',
      },
      {
        user: 'And B-2?',
        expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: 'B-2' } }],
        expected_raw_data: [{ status: 'pending' }],
        expected_nl_response: 'Order B-2 is pending.',
      },
    ]);
    const card = await evaluateCase(
      {
        runId: 'g',
        testCase,
        output: null,
        turns: [
          { output: message([{ tool_name: 'get_order', arguments: { order_id: 'A-1' } }], 'Order A-1 has shipped.') },
          { output: message([{ tool_name: 'get_order', arguments: { order_id: 'B-2' } }], 'Sorry, I could not tell.') },
        ],
        timestamp: ts,
      },
      nightly,
      { apiProvider: new ExpectedDataProvider(), judge: new LocalReferenceJudge() },
    );
    expect(card.turns?.map((t) => t.stages.execution.status)).toEqual(['passed', 'passed']);
    expect(card.turns?.[0]?.stages.semantics.status).toBe('passed');
    expect(card.turns?.[1]?.passed).toBe(false);
    expect(card.failing_turn).toBe(1);
    expect(card.failing_stage).toBe('semantics');
    expect(card.api_calls_made).toBe(2);
  });
});

describe('conversation case validation', () => {
  it('names the field that is wrong', () => {
    const issues = (input: unknown) => {
      const r = TestCaseSchema.safeParse(input);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(issues({ id: 'x' })).toEqual([
      'nl_query: required: a case has a question (nl_query) or a conversation (turns)',
      'expected_tool_calls: required for a single-question case ([] means: make no call); a conversation case puts them in turns[i].expected_tool_calls',
    ]);
    expect(issues({ id: 'x', turns: [{ user: 'hi' }], expected_tool_calls: [{ tool_name: 't' }] })).toEqual([
      'expected_tool_calls: a conversation case (with turns) states expected_tool_calls per turn (turns[i].expected_tool_calls), not for the whole case',
    ]);
    expect(issues({ id: 'x', turns: [{ user: 'hi', expect_clarification: true, expected_tool_calls: [{ tool_name: 't' }] }] })[0]).toMatch(
      /^turns\.0\.expect_clarification: is true but the turn expects 1 call/,
    );
    expect(issues({ id: 'x', turns: [] })[0]).toMatch(/^turns: /);
    expect(issues({ id: 'x', turns: [{ user: '' }] })[0]).toMatch(/^turns\.0\.user: /);
    const ok = TestCaseSchema.parse({ id: 'x', turns: [{ user: 'first' }, { user: 'second' }] });
    expect([ok.nl_query, ok.expected_tool_calls]).toEqual(['first', []]);
    // a parsed conversation parses again to itself (export and import round trip)
    expect(TestCaseSchema.parse(JSON.parse(JSON.stringify(ok)))).toEqual(ok);
  });
});
