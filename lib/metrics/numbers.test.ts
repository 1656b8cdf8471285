import { describe, expect, it } from 'vitest';
import { distinctNumbers, extractNumbers, findNumbers, sameNumber } from './numbers.js';

describe('extractNumbers', () => {
  it.each([
    ['1,234.50', [[1234.5]]],
    ['It costs $1,234.5 today', [[1234.5]]],
    ['1234.5', [[1234.5]]],
    ['growth of 12%', [[12, 0.12]]],
    ['12 percent', [[12, 0.12]]],
    ['-5 degrees and \u22123', [[-5], [-3]]],
    ['1.2 million users', [[1.2, 1_200_000]]],
    [
      'revenue $3.5M, cost 2bn, 10k rows',
      [
        [3.5, 3_500_000],
        [2, 2e9],
        [10, 10_000],
      ],
    ],
    ['a 5km run', [[5]]],
    ['2024-01-15', [[2024], [1], [15]]],
    ['gpt-4o', [[4]]],
    ['build v2 of A1', []],
    ['.5 and 0.5', [[0.5], [0.5]]],
    ['42 orders and 7 returns.', [[42], [7]]],
    ['no numbers here', []],
  ])('%s', (text, values) => {
    expect(extractNumbers(text).map((m) => m.values)).toEqual(values);
  });

  it('keeps the text as written', () => {
    expect(extractNumbers('Total: $1,234.50 (12%)')).toEqual([
      { text: '$1,234.50', values: [1234.5] },
      { text: '12%', values: [12, 0.12] },
    ]);
  });
});

describe('sameNumber (0.01% relative tolerance)', () => {
  it.each([
    [1234.5, 1234.62, true],
    [100, 100.02, false],
    [100, 100.01, true],
    [0, 0, true],
    [0, 1e-9, false],
    [-5, 5, false],
  ])('%f vs %f -> %s', (a, b, expected) => {
    expect(sameNumber(a, b)).toBe(expected);
  });
});

describe('findNumbers', () => {
  it.each([
    ['12%', 'it grew 0.12 this year', 1],
    ['0.12', 'it grew 12%', 1],
    ['1.2 million', '1,200,000 users', 1],
    ['$1,234.50', '1234.5 dollars', 1],
    ['42 and 7', 'only 42', 1],
    ['3.14159', '3.14', 0],
  ])('%s in %s: %i found', (reference, answer, found) => {
    expect(findNumbers(extractNumbers(reference), extractNumbers(answer)).found).toHaveLength(found);
  });

  it('deduplicates reference numbers by value', () => {
    expect(distinctNumbers(extractNumbers('42 orders; 42.00 orders; 7')).map((m) => m.text)).toEqual(['42', '7']);
  });
});
