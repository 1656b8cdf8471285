import { describe, expect, it } from 'vitest';
import { nlQueryOf } from './question.js';

describe('nlQueryOf', () => {
  it.each<[string, unknown, ReturnType<typeof nlQueryOf>]>([
    ['a plain string (older files)', 'Find the area', { nl_query: 'Find the area' }],
    ['one turn with one user message', [[{ role: 'user', content: 'Find the area' }]], { nl_query: 'Find the area' }],
    ['a flat message list', [{ role: 'user', content: 'Find the area' }], { nl_query: 'Find the area' }],
    [
      'a system prompt and a user message',
      [
        [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Find the area' },
        ],
      ],
      {
        nl_query: '[system] Be brief.\n\n[user] Find the area',
        note: '2 messages (system, user) joined into nl_query as "[role] content" paragraphs',
      },
    ],
    [
      'several turns',
      [[{ role: 'user', content: 'a' }], [{ role: 'user', content: 'b' }]],
      { field: 'question', reason: 'has 2 turns; multi-turn questions cannot be imported as one case' },
    ],
    ['an empty string', '  ', { field: 'question', reason: 'is empty' }],
    ['an empty list', [], { field: 'question', reason: 'expected a string, a list of messages or a list of turns' }],
    [
      'a message without content',
      [[{ role: 'user' }]],
      { field: 'question.0.0', reason: 'expected a message {"role": string, "content": string}' },
    ],
    ['only a system message', [[{ role: 'system', content: 'x' }]], { field: 'question.0', reason: 'has no user message' }],
    ['an empty user message', [[{ role: 'user', content: '' }]], { field: 'question.0.0.content', reason: 'is empty' }],
  ])('%s', (_label, question, expected) => {
    expect(nlQueryOf(question)).toEqual(expected);
  });
});
