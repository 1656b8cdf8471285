import { describe, expect, it } from 'vitest';
import { contentWords, tokenize } from './tokens.js';

describe('tokenize', () => {
  it.each([
    ['Hello, World!', ['hello', 'world']],
    ['$1,234.50 vs 1234.5', ['1234.5', 'vs', '1234.5']],
    ['Order #0042 is READY.', ['order', '0042', 'is', 'ready']],
    ['don\u2019t stop', ["don't", 'stop']],
    ['Zürich café', ['zürich', 'café']],
    ['', []],
  ])('%j', (text, tokens) => {
    // 0042 is not an English-formatted number with separators, but it is digits: normalised to 42
    expect(tokenize(text)).toEqual(tokens.map((t) => (t === '0042' ? '42' : t)));
  });
});

describe('contentWords', () => {
  it('drops stopwords and numbers but keeps negations', () => {
    expect(contentWords(tokenize('The order was not shipped on 12 May'))).toEqual(['order', 'not', 'shipped', 'may']);
  });
});
