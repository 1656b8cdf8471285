import { describe, expect, it } from 'vitest';
import { bfclNormalize, collapseWhitespace, stringEquivalence } from './strings.js';

describe('strings', () => {
  it('normalises', () => {
    expect(collapseWhitespace('  New \t York\n ')).toBe('New York');
    expect(bfclNormalize("April 1, 2024 - O'Hare_*^/.")).toBe('april12024o"hare');
  });

  it.each([
    ['New York', ' New  York', 'whitespace', { allowed: true, coercions: ['string_whitespace'] }],
    ['New York', ' New  York', 'none', { allowed: false, coercions: ['string_whitespace'] }],
    ['New York', 'new york', 'case_whitespace', { allowed: true, coercions: ['string_case'] }],
    ['New York', ' new  york', 'case_whitespace', { allowed: true, coercions: ['string_whitespace', 'string_case'] }],
    ['New York', 'new york', 'whitespace', { allowed: false, coercions: ['string_case'] }],
    ['April 1, 2024', 'april 1 2024', 'bfcl', { allowed: true, coercions: ['string_bfcl'] }],
    ['April 1, 2024', 'april 1 2024', 'case_whitespace', { allowed: false, coercions: ['string_bfcl'] }],
    ['a\tb', 'a b', 'bfcl', { allowed: false, coercions: ['string_whitespace'] }],
    ['Paris', 'London', 'bfcl', undefined],
  ] as const)('%j vs %j under %s', (e, a, mode, outcome) => {
    expect(stringEquivalence(e, a, mode)).toEqual(outcome);
  });
});
