import { describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, TestCaseSchema } from '../domain/index.js';
import { startCase } from '../evaluation/index.js';
import { CaseStateSchema } from './caseStateSchema.js';

const conversation = TestCaseSchema.parse({
  id: 'conv',
  turns: [
    { user: 'Cancel ORD-5003.', expected_tool_calls: [{ tool_name: 'cancel_order', arguments: { order_id: 'ORD-5003' } }] },
    { user: 'Its status now?', expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: 'ORD-5003' } }] },
  ],
  environment: { name: 'retail' },
});
const call = (name: string) => ({
  role: 'assistant',
  content: 'Done.',
  tool_calls: [{ id: 'c', type: 'function', function: { name, arguments: '{"order_id":"ORD-5003"}' } }],
});
const state = startCase(
  {
    runId: 'r',
    testCase: conversation,
    output: null,
    turns: [{ output: call('cancel_order'), trajectory: { steps: [], turns: 1, stop: 'answered' } }, { output: call('get_order') }],
  },
  resolveEvaluationConfig({ execution: { enabled: true, provider: 'environment' } }),
);

describe('CaseStateSchema (the state an execute or judge message carries)', () => {
  it('accepts a conversation state with its turns and efficiency, and keeps them', () => {
    const parsed = CaseStateSchema.parse(JSON.parse(JSON.stringify(state)));
    expect(parsed.turns?.map((t) => t.calls[0]?.tool_name)).toEqual(['cancel_order', 'get_order']);
    expect(parsed.efficiency).toEqual(state.efficiency);
    expect(parsed).toEqual(JSON.parse(JSON.stringify(state)));
  });

  it('refuses a mangled turn or efficiency, naming the field', () => {
    const bad = JSON.parse(JSON.stringify(state));
    bad.turns[1].calls = 'get_order';
    bad.efficiency.calls_made = -1;
    const result = CaseStateSchema.safeParse(bad);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['efficiency.calls_made', 'turns.1.calls']);
  });
});
