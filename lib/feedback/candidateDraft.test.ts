import { describe, expect, it } from 'vitest';
import { FeedbackInteractionSchema, type FeedbackInteractionInput } from '../domain/index.js';
import { candidateReason, caseIdFor, draftOf } from './candidateDraft.js';

const NOW = '2026-11-26T08:00:00.000Z';
const interaction = (extra: Partial<FeedbackInteractionInput> = {}) =>
  FeedbackInteractionSchema.parse({
    id: 'ix-1',
    target_id: 'agent',
    question: 'What were sales in June?',
    tool_calls: [{ tool_name: 'get_sales_summary', arguments: { month: '2026-06' }, result: { revenue: 10 } }],
    answer: 'There were 4 orders.',
    started_at: '2026-11-20T09:00:00Z',
    ...extra,
  });

describe('candidateReason', () => {
  it('a correction first, then failed / thumbs down; thumbs up and no flag are no candidates', () => {
    expect(candidateReason(interaction({ flag: 'thumbs_up', correction: { answer: 'x' } }))).toBe('corrected');
    expect(candidateReason(interaction({ flag: 'failed' }))).toBe('failed');
    expect(candidateReason(interaction({ flag: 'thumbs_down' }))).toBe('thumbs_down');
    expect(candidateReason(interaction({ flag: 'thumbs_up' }))).toBeUndefined();
    expect(candidateReason(interaction())).toBeUndefined();
  });
});

describe('draftOf', () => {
  it('an answer-only correction expects the calls the agent made and the corrected answer', () => {
    const { draft, needs, tools } = draftOf(
      interaction({ correction: { answer: 'Revenue was $10.' }, tags: ['vip'] }),
      'corrected',
      NOW,
      'analytics',
    );
    expect(draft).toEqual({
      id: 'fb-ix-1',
      nl_query: 'What were sales in June?',
      expected_tool_calls: [{ tool_name: 'get_sales_summary', arguments: { month: '2026-06' } }],
      expected_nl_response: 'Revenue was $10.',
      metadata: {
        complexity_level: 1,
        tags: ['production-feedback', 'corrected', 'vip'],
        source: 'production_feedback',
        created_at: NOW,
        category: 'analytics',
      },
    });
    expect(needs).toEqual([]);
    expect(tools).toEqual(['get_sales_summary']);
  });

  it('flagged without a correction: no expected calls, needs them; tools are what the agent called', () => {
    const { draft, needs, tools } = draftOf(interaction({ flag: 'failed', category: 'sales' }), 'failed', NOW, 'ignored');
    expect(draft.expected_tool_calls).toBeUndefined();
    expect(draft.metadata.category).toBe('sales');
    expect(needs).toEqual(['expected_tool_calls']);
    expect(tools).toEqual(['get_sales_summary']);
  });

  it('a conversation: earlier turns expect what the agent did, the last the correction; complexity counts every expected call', () => {
    const { draft, tools } = draftOf(
      interaction({
        question: undefined,
        tool_calls: [],
        turns: [
          { user: 'find customer ann', tool_calls: [{ tool_name: 'find_customer', arguments: { name: 'ann' } }] },
          { user: 'her last order', tool_calls: [{ tool_name: 'search_orders', arguments: {} }] },
        ],
        correction: {
          tool_calls: [
            { tool_name: 'search_orders', arguments: { customer_id: 'C1' } },
            { tool_name: 'get_order', arguments: { order_id: 'O1' } },
          ],
        },
      }),
      'corrected',
      NOW,
    );
    expect(draft.turns!.map((t) => t.expected_tool_calls.map((c) => c.tool_name))).toEqual([
      ['find_customer'],
      ['search_orders', 'get_order'],
    ]);
    expect(draft.nl_query).toBeUndefined();
    expect(draft.metadata.complexity_level).toBe(3);
    expect(tools).toEqual(['get_order', 'search_orders']);
  });

  it('case ids stay within the id limit', () => {
    expect(caseIdFor('abc')).toBe('fb-abc');
    const long = caseIdFor('x'.repeat(128));
    expect(long).toMatch(/^fb-[0-9a-f]{40}$/);
    expect(caseIdFor('x'.repeat(128))).toBe(long);
  });
});
