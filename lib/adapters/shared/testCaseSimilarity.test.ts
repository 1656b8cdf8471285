import { describe, expect, it } from 'vitest';
import { normalizeForSimilarity, similarityTerms, textSimilarity, trigramVector } from './testCaseSimilarity.js';

describe('testCaseSimilarity', () => {
  it.each([
    ["Où est  l'hôtel?", 'ou est l hotel'],
    ['  Zürich -- GET_weather!! ', 'zurich get weather'],
    ['ﬁle №5', 'file no5'],
    ['?!', ''],
    ['', ''],
  ])('normalizes %j to %j', (text, expected) => {
    expect(normalizeForSimilarity(text)).toBe(expected);
  });

  it('splits into distinct words as the full-text index does', () => {
    expect(similarityTerms('The weather, the WEATHER in Zürich')).toEqual(['the', 'weather', 'in', 'zurich']);
    expect(similarityTerms('...')).toEqual([]);
  });

  it('counts padded trigrams', () => {
    expect(Object.fromEntries(trigramVector('Aa a'))).toEqual({ ' aa': 1, 'aa ': 1, 'a a': 1, ' a ': 1 });
    expect(trigramVector('!!').size).toBe(0);
  });

  const q = 'What is the weather in Paris tomorrow?';
  it.each([
    ['the same question up to case and punctuation', 'WHAT IS THE WEATHER IN PARIS TOMORROW!!', 1],
    ['a contraction', "what's the weather in paris tomorrow", 0.9404],
    ['the same words in another order', 'Paris tomorrow: what is the weather?', 0.9404],
    ['two typos', 'What is the wether in Paris tomorow?', 0.905],
    ['reworded', 'Will it rain in Paris tomorrow morning, and how warm will it be?', 0.3705],
    ['one shared word', 'Cancel my hotel reservation in Paris', 0.2226],
    ['unrelated', 'Book a flight from Berlin to Tokyo next Friday', 0.0634],
    ['no letters', '?!', 0],
  ])('scores %s', (_label, other, expected) => {
    expect(textSimilarity(q, other)).toBe(expected);
    expect(textSimilarity(other, q)).toBe(expected);
  });
});
