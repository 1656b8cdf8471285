import { describe, expect, it } from 'vitest';
import { questionSimilarity, questionWords, sameTools, toolSet } from './questionSimilarity.js';

describe('questionSimilarity', () => {
  it('is 1 for the same question up to case, accents and punctuation', () => {
    expect(questionSimilarity('Où est la commande 12 ?', 'ou est LA commande 12')).toBe(1);
  });
  it('is the Jaccard index of the word sets (hand-computed)', () => {
    // {where, is, order, 1234} vs {where, s, my, order, 1234}: 3 shared of 6
    expect(questionSimilarity('Where is order 1234?', "where's my order 1234")).toBe(0.5);
    expect(questionSimilarity('show me order 1234 status', 'show me the status of order 1234')).toBe(0.7143);
    expect(questionSimilarity('cancel my subscription', 'list all products')).toBe(0);
    expect(questionSimilarity('', 'x')).toBe(0);
  });
  it('normalises words and tool sets', () => {
    expect([...questionWords('Ça  va-bien?')]).toEqual(['ca', 'va', 'bien']);
    expect(toolSet([{ tool_name: 'b' }, { tool_name: 'a' }, { tool_name: 'b' }])).toEqual(['a', 'b']);
    expect(sameTools(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameTools(['a'], ['a', 'b'])).toBe(false);
  });
});
