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
    expect([result.cases, result.conversations]).toEqual([SUBSET.length, 7]);
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
    // B's repeated lookup costs efficiency, not correctness: the case passes with the repeat counted
    expect([card('conv-lookup-cancel-ORD-5003').overall_passed, card('conv-lookup-cancel-ORD-5003').efficiency?.redundant_calls]).toEqual([
      true,
      1,
    ]);
    expect([a!.efficiency?.redundant_calls, b!.efficiency?.redundant_calls]).toEqual([0, 1]);
    // per-turn results: turn 1 of B fails on the stale id and the skipped clarification (its repeated lookup passes)
    expect(a!.by_turn).toEqual([
      { turn: 0, passed: 7, scored: 7 },
      { turn: 1, passed: 6, scored: 7 },
      { turn: 2, passed: 1, scored: 1 },
    ]);
    expect(b!.by_turn).toEqual([
      { turn: 0, passed: 5, scored: 7 },
      { turn: 1, passed: 6, scored: 7 },
      { turn: 2, passed: 1, scored: 1 },
    ]);
    // the comparison (POST /compare) pairs every case: B's 7 failing mistakes fail newly, A's 2 pass on B
    const overall = result.comparison.pairs[0]!.overall;
    expect([overall.paired_cases, overall.newly_failing, overall.newly_passing]).toEqual([SUBSET.length, 7, 2]);
  }, 180_000);
});
