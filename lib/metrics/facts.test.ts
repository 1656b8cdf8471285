import { describe, expect, it } from 'vitest';
import { checkFact, foldPlural, indexAnswer } from './facts.js';

describe('checkFact', () => {
  it.each([
    ['42 open orders', 'There are 42 open orders.', true, 1],
    ['42 open orders', 'There are 41 open orders.', false, 2 / 3],
    ['The order was shipped to Berlin on Monday', 'Shipped to Berlin on Monday.', false, 3 / 4],
    ['The order was shipped to Berlin on Monday', 'Your order shipped to Berlin, Monday.', true, 1],
    ['Status: ACTIVE', 'the status is active', true, 1],
    ['3 open tickets', '3 open ticket', true, 1],
    ['total value $1,234.50', 'the total value is 1234.5 USD', true, 1],
    ['growth of 12%', 'growth was 0.12', true, 1],
    ['quarterly revenue grew strongly overall', 'quarterly revenue grew strongly', true, 4 / 5],
    ['quarterly revenue grew strongly overall', 'quarterly revenue grew', false, 3 / 5],
    ['it is', 'it is', true, 1],
  ])('%j in %j: present=%s', (fact, answer, present, coverage) => {
    const check = checkFact(fact, indexAnswer(answer));
    expect(check).toEqual({ fact, present, coverage: expect.closeTo(coverage, 10) as number });
  });

  it('has nothing to check in an empty fact', () => {
    expect(checkFact(' ... ', indexAnswer('anything'))).toBeUndefined();
  });
});

describe('foldPlural', () => {
  it.each([
    ['orders', 'order'],
    ['entries', 'entry'],
    ['class', 'class'],
    ['bus', 'bus'],
    ['is', 'is'],
  ])('%s -> %s', (word, folded) => {
    expect(foldPlural(word)).toBe(folded);
  });
});
