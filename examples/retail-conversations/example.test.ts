/**
 * The example's core (example.ts) on a subset of the GENERATED cases: the real platform, the real `openai` client
 * against the scripted model server, the retail environment. Asserts what each check caught: every mistake of the
 * simulated models' catalogue shows as its error code on exactly the cases it was made on, and nothing else fails.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decisionsJsonl, MISTAKES, mistakesOf, type SimulatedModel } from './generateDecisions.js';
import { runConversationsExample, type ExampleResult } from './example.js';
import { startScriptedModelServer } from '../retail-mcp/scriptedModelServer.js';

const SUBSET = [
  'chain-orders-CUS-1001',
  'chain-orders-CUS-1002',
  'refund-rest-ORD-5004',
  'conv-refund-item-ORD-5001',
  'conv-refund-item-ORD-5002',
  'conv-refund-item-ORD-5004',
  'refund-flaky-ORD-5001',
  'refund-flaky-ORD-5002',
  'missing-refund-order',
  'missing-cancel-order',
  'conv-clarify-reserve-SKU-MUG',
  'conv-clarify-refund-ORD-5002',
  'conv-lookup-cancel-ORD-5003',
  'status-timeout-ORD-5003',
  'status-timeout-ORD-5005',
  'conv-ticket-CUS-1003',
  'irrelevant-haiku',
  // later turns on the state earlier turns left (one environment session per conversation, cumulative stage 3)
  'conv-cancel-status-ORD-5003',
  'conv-refund-then-rest-ORD-5001',
  'conv-refund-then-rest-ORD-5002',
  'conv-reserve-more-SKU-MUG',
  'conv-refund-flaky-ORD-5004',
];

describe('examples/retail-conversations: two simulated models through the platform', () => {
  it('decisions.jsonl is exactly what generateDecisions.ts writes, and is labelled generated and simulated', () => {
    const text = readFileSync(fileURLToPath(new URL('./decisions.jsonl', import.meta.url)), 'utf8');
    expect(text).toBe(decisionsJsonl());
    const models = new Set(
      text
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { generated: boolean; model: string }).model),
    );
    expect([...models]).toEqual(['simulated-model-a', 'simulated-model-b']);
  });

  it('the scripted model server holds a conversation over the Anthropic protocol too (reply per user turn, $from within it)', async () => {
    const server = await startScriptedModelServer({ decisionsPath: fileURLToPath(new URL('./decisions.jsonl', import.meta.url)) });
    try {
      type Block = { type: string; name?: string; input?: unknown; text?: string };
      const ask = async (messages: unknown[]) => {
        const res = await fetch(`${server.anthropicBaseUrl}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'simulated-model-a', max_tokens: 256, tools: [{ name: 'find_customer' }], messages }),
        });
        return ((await res.json()) as { content: Block[] }).content;
      };
      const user1 = { role: 'user', content: 'Show me the orders of bo@example.com, I need to sort out ORD-5004.' };
      expect(await ask([user1])).toEqual([expect.objectContaining({ name: 'find_customer', input: { email: 'bo@example.com' } })]);
      const found = [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'find_customer', input: { email: 'bo@example.com' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '{"customer_id":"CUS-1002","name":"Bo Chen"}' }] },
      ];
      // the id comes from the tool result the client sent back, not from the script
      expect(await ask([user1, ...found])).toEqual([expect.objectContaining({ name: 'list_orders', input: { customer_id: 'CUS-1002' } })]);
      const listed = [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'list_orders', input: { customer_id: 'CUS-1002' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: '{"orders":[]}' }] },
      ];
      expect(await ask([user1, ...found, ...listed])).toEqual([{ type: 'text', text: 'Bo Chen has 2 orders.' }]);
      const turn2 = [
        { role: 'assistant', content: [{ type: 'text', text: 'Bo Chen has 2 orders.' }] },
        { role: 'user', content: 'Refund the first item of ORD-5004 (SKU-TEA), it arrived damaged.' },
      ];
      expect(await ask([user1, ...found, ...listed, ...turn2])).toEqual([
        expect.objectContaining({ name: 'issue_refund', input: { order_id: 'ORD-5004', amount: 21.75, reason: 'item arrived damaged' } }),
      ]);
    } finally {
      await server.close();
    }
  });

  it('each check catches the mistake it is meant for, on exactly those cases', async () => {
    const result: ExampleResult = await runConversationsExample({ caseIds: SUBSET });
    expect([result.cases, result.conversations]).toEqual([SUBSET.length, 12]);
    for (const run of result.runs) {
      expect([run.status, run.stats.completed, run.stats.not_scored ?? 0]).toEqual(['completed', SUBSET.length, 0]);
      const failed = Object.fromEntries(run.scorecards.filter((c) => !c.overall_passed).map((c) => [c.test_case_id, c.error_code]));
      const expected = Object.fromEntries(
        SUBSET.flatMap((id) =>
          mistakesOf(run.model as SimulatedModel, id)
            .filter((m) => MISTAKES[m].check !== 'redundant_calls') // efficiency only: the case passes
            .map((m) => [id, MISTAKES[m].check] as const),
        ),
      );
      expect(failed, run.model).toEqual(expected);
    }
    const [a, b] = result.runs;
    const card = (id: string) => b!.scorecards.find((c) => c.test_case_id === id)!;
    // B's stale id: the diff names the value passed and the value the earlier call returned
    expect(card('chain-orders-CUS-1002').stages.logic.message).toContain('passed "CUS-1001" where find_customer returned "CUS-1002"');
    expect(card('conv-refund-item-ORD-5004')).toMatchObject({ failing_turn: 0, error_code: 'data_flow_mismatch' });
    // B refunded the whole order for "the second item": stage 2 accepts the amount (in range), the final state does not
    const whole = card('conv-refund-item-ORD-5001');
    expect([whole.failing_turn, whole.failing_stage, whole.turns?.[0]?.passed]).toEqual([1, 'execution', true]);
    expect(whole.stages.execution.message).toContain('/orders/ORD-5001/refunded_total expected 7.25, got 32.25');
    // the run report names the failing turn, its question and the state diff a person can act on
    const reported = b!.report_failures.find((f) => f.test_case_id === 'conv-refund-item-ORD-5001')!;
    expect([reported.failing_turn, reported.error_code, reported.question]).toEqual([
      1,
      'state_mismatch',
      'turn 2 of 2: Refund the second item of ORD-5001 (SKU-TEA), it arrived damaged.',
    ]);
    expect(reported.message).toContain('/orders/ORD-5001/refunded_total expected 7.25, got 32.25');
    // carried state: turn 2 of A's cancel-then-status read the cancellation its turn 1 made, live and in stage 3
    const status = a!.scorecards.find((c) => c.test_case_id === 'conv-cancel-status-ORD-5003')!;
    expect([status.overall_passed, status.turns?.[1]?.stages.execution.message]).toEqual([
      true,
      "The retail state after turn 2 (turns 1-2 replayed) equals the gold's and the 1 expected calls returned what the gold's did.",
    ]);
    expect(status.turns?.[1]?.trajectory?.steps.find((s) => s.kind === 'tool_call')).toMatchObject({ result: { status: 'cancelled' } });
    // B answers from stale state: turn 2's lookup (after its own turn-1 refund) said 24.19, it refunded the old 32.25
    const staleRest = card('conv-refund-then-rest-ORD-5001');
    expect([staleRest.failing_turn, staleRest.error_code]).toEqual([1, 'data_flow_mismatch']);
    expect(staleRest.stages.logic.message).toContain('/amount passed 32.25 where get_order returned 24.19 at /refundable');
    // B repeats the mutation: "3 in total" after reserving 2 becomes 3 more; the state after turns 1-2 shows it (turn 3 too,
    // but the first failing turn is reported)
    const repeated = card('conv-reserve-more-SKU-MUG');
    expect([repeated.failing_turn, repeated.failing_stage, repeated.turns?.map((t) => t.passed)]).toEqual([
      1,
      'execution',
      [true, false, false],
    ]);
    expect(repeated.stages.execution.message).toContain('/inventory/SKU-MUG/reserved expected 5, got 7');
    // the scripted fault names the 2nd refund of the conversation: it hits turn 2, where B does not retry
    expect(card('conv-refund-flaky-ORD-5004')).toMatchObject({ failing_turn: 1, error_code: 'missing_recovery' });
    // B's repeated lookup costs efficiency, not correctness: the case passes with the repeat counted
    expect([card('conv-lookup-cancel-ORD-5003').overall_passed, card('conv-lookup-cancel-ORD-5003').efficiency?.redundant_calls]).toEqual([
      true,
      1,
    ]);
    // and its stale refund was rejected, so its turn-3 lookup repeats turn 2's with the same result: redundant too
    expect([a!.efficiency?.redundant_calls, b!.efficiency?.redundant_calls]).toEqual([0, 2]);
    expect(card('conv-refund-then-rest-ORD-5001').efficiency?.redundant_calls).toBe(1);
    // per-turn results (cumulative state: a turn after a mutation that went wrong fails too; the first failing turn is
    // the case's). A: turn 2 of the ticket conversation asks instead of creating the ticket, so its turn 3 state lacks it.
    expect(a!.by_turn).toEqual([
      { turn: 0, passed: 12, scored: 12 },
      { turn: 1, passed: 11, scored: 12 },
      { turn: 2, passed: 3, scored: 4 },
    ]);
    // B: turn 1 fails on the stale id and the skipped clarification; the guessed reservation of that turn 1 also fails
    // its turn 2 (the state carries it), beside the whole-order refund, the stale refundable, the repeated reservation
    // and the missing retry
    expect(b!.by_turn).toEqual([
      { turn: 0, passed: 10, scored: 12 },
      { turn: 1, passed: 7, scored: 12 },
      { turn: 2, passed: 2, scored: 4 },
    ]);
    expect(card('conv-clarify-reserve-SKU-MUG').turns?.map((t) => t.passed)).toEqual([false, false]);
    // the comparison (POST /compare) pairs every case: B's 10 failing mistakes fail newly, A's 2 pass on B
    const overall = result.comparison.pairs[0]!.overall;
    expect([overall.paired_cases, overall.newly_failing, overall.newly_passing]).toEqual([SUBSET.length, 10, 2]);
  }, 180_000);
});
