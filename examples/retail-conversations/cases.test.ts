/**
 * The GENERATED retail-conversations cases: the file is what the generator writes, every case parses, every stateful
 * case's gold replays cleanly on its initial state (a conversation's cumulatively, turn after turn on one session), and
 * each case's own gold, played back as an agent's output (with an answer of the kind the case expects; a conversation
 * turn by turn), passes stages 2 and 3.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, TestCaseSchema, turnCaseOf, type TestCase } from '../../lib/domain/index.js';
import { EnvironmentApiProvider, RETAIL_CATALOG } from '../../lib/environments/index.js';
import { evaluateCase } from '../../lib/evaluation/index.js';
import { invalidCaseReason, replayConversationGold, replayGold } from '../../lib/evaluation/execution/index.js';
import { casesJsonl } from './generateCases.js';

const FILE = fileURLToPath(new URL('./cases.jsonl', import.meta.url));
const text = readFileSync(FILE, 'utf8');
const cases = text
  .trim()
  .split('\n')
  .map((line) => TestCaseSchema.parse(JSON.parse(line)));

function answerFor(tc: TestCase): string {
  if (tc.expected_tool_calls.length === 0 && tc.turns === undefined && tc.expected_facts.length === 0 && !tc.abstention)
    return 'I can only help with orders, refunds, stock and support tickets.';
  if (tc.abstention?.reason === 'missing_parameter') return `Could you tell me the ${tc.abstention.asks_for?.[0] ?? 'details'}?`;
  if (tc.abstention?.reason === 'irrelevant') return 'I can only help with orders, refunds, stock and support tickets.';
  if (tc.environment?.faults.some((f) => f.expect_recovery === 'tell_user'))
    return 'Sorry, the order service timed out; please try again later.';
  return 'Done.';
}

describe('examples/retail-conversations (generated cases)', () => {
  it('cases.jsonl is exactly what generateCases.ts writes, and every case is labelled generated', () => {
    expect(text).toBe(casesJsonl());
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(cases.filter((tc) => (tc.turns?.length ?? 0) >= 2).length).toBeGreaterThanOrEqual(20);
    for (const tc of cases) expect([tc.metadata.source, tc.metadata.tags[0]]).toEqual(['generated:retail-conversations', 'generated']);
    // the scripted model server finds a case's decision by its first user message: they must differ
    const first = cases.map((tc) => tc.turns?.[0]?.user ?? tc.nl_query);
    expect(new Set(first).size).toBe(cases.length);
  });

  it('every stateful case replays cleanly, and its own gold as the output passes stages 2 and 3', async () => {
    const config = resolveEvaluationConfig({ execution: { enabled: true, provider: 'environment' } });
    const deps = { catalogFor: () => RETAIL_CATALOG, apiProvider: new EnvironmentApiProvider() };
    const failures: string[] = [];
    const output = (calls: ReadonlyArray<{ tool_name: string; arguments: unknown }>, content: string) => ({
      role: 'assistant',
      content,
      tool_calls: calls.map((c, i) => ({
        id: `g${i}`,
        type: 'function',
        function: { name: c.tool_name, arguments: JSON.stringify(c.arguments) },
      })),
    });
    for (const tc of cases) {
      expect(invalidCaseReason(tc), tc.id).toBeUndefined();
      let input: Parameters<typeof evaluateCase>[0];
      if (tc.turns?.length) {
        // a conversation's gold replays cumulatively (one session over the turns): each turn's concrete calls from it
        const gold = replayConversationGold(tc, tc.turns.length - 1) as Extract<ReturnType<typeof replayGold>, { ok: true }>;
        const starts = [...gold.replay.turn_starts!, gold.replay.calls.length];
        const turns = tc.turns.map((turn, i) => ({
          output: output(
            gold.replay.calls.slice(starts[i], starts[i + 1]),
            turn.expect_clarification ? 'Which order number or quantity do you mean?' : answerFor(turnCaseOf(tc, i)),
          ),
        }));
        input = { runId: 'self', testCase: tc, output: null, turns };
      } else {
        const calls = tc.environment ? (replayGold(tc) as Extract<ReturnType<typeof replayGold>, { ok: true }>).replay.calls : [];
        input = { runId: 'self', testCase: tc, output: output(calls, answerFor(tc)) };
      }
      const card = await evaluateCase(input, config, deps);
      if (!card.overall_passed) failures.push(`${tc.id}: ${card.error_code} ${card.stages[card.failing_stage!].message}`);
    }
    expect(failures).toEqual([]);
  });
});
