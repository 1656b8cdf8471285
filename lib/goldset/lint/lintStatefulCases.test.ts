import { describe, expect, it } from 'vitest';
import { TestCaseSchema } from '../../domain/index.js';
import { lintCases } from './lintCases.js';

describe('lintCases on stateful cases (issue 12)', () => {
  it("warns when a stateful case's gold does not replay on its initial state, and not when it does", () => {
    const make = (id: string, amount: number) =>
      TestCaseSchema.parse({
        id,
        nl_query: `Refund ${amount} on ORD-5001`,
        expected_tool_calls: [{ tool_name: 'issue_refund', arguments: { order_id: 'ORD-5001', amount, reason: 'damaged' } }],
        environment: { name: 'retail' },
      });
    const warnings = lintCases([make('ok', 10), make('too-much', 99)]).filter((w) => w.code === 'invalid_gold');
    expect(warnings).toEqual([
      {
        test_case_id: 'too-much',
        code: 'invalid_gold',
        message:
          'gold call #0 issue_refund {"order_id":"ORD-5001","amount":99,"reason":"damaged"} does not replay on retail/default: 422 amount 99 exceeds the refundable 32.25 of order ORD-5001; runs will report it invalid_case, not scored',
      },
    ]);
  });

  it('an abstention case needs no tool hints', () => {
    const tc = TestCaseSchema.parse({
      id: 'haiku',
      nl_query: 'Write a haiku',
      expected_tool_calls: [],
      abstention: { reason: 'irrelevant' },
    });
    expect(lintCases([tc]).map((w) => w.code)).not.toContain('no_tool_hints');
  });
});
