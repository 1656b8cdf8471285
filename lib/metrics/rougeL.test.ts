import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lcsLength, rougeL } from './rougeL.js';
import { tokenize } from './tokens.js';

describe('ROUGE-L', () => {
  // Lin (2004), section 3.1, and the rouge-score README example (score(target, prediction))
  it.each([
    ['police kill the gunman', 'police killed the gunman', 3, 0.75, 0.75],
    ['the gunman kill police', 'police killed the gunman', 2, 0.5, 0.5],
    ['The quick brown dog jumps on the log.', 'The quick brown fox jumps over the lazy dog', 5, 0.625, 5 / 9],
    ['same words here', 'same words here', 3, 1, 1],
    ['nothing shared', 'completely different', 0, 0, 0],
    ['', 'reference', 0, 0, 0],
    ['candidate', '', 0, 0, 0],
  ])('%j vs %j', (candidate, reference, lcs, precision, recall) => {
    const c = tokenize(candidate);
    const r = tokenize(reference);
    expect(lcsLength(c, r)).toBe(lcs);
    expect(lcsLength(r, c)).toBe(lcs);
    const score = rougeL(c, r);
    expect(score.precision).toBeCloseTo(precision, 10);
    expect(score.recall).toBeCloseTo(recall, 10);
    expect(score.f1).toBeCloseTo(precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall), 10);
  });

  it('matches the rouge-score F-measure 0.5882 for the README example', () => {
    const f1 = rougeL(tokenize('The quick brown dog jumps on the log.'), tokenize('The quick brown fox jumps over the lazy dog')).f1;
    expect(f1).toBeCloseTo(0.5882, 4);
  });
});

/** The textbook dynamic programme, as the oracle. */
function lcsByTable(a: readonly string[], b: readonly string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      table[i]![j] = a[i - 1] === b[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
    }
  }
  return table[a.length]![b.length]!;
}

describe('lcsLength (bit-parallel)', () => {
  it('equals the dynamic programme on random token lists, across word boundaries', () => {
    const tokens = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'the', 'x'), { maxLength: 100 });
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        expect(lcsLength(a, b)).toBe(lcsByTable(a, b));
      }),
      { numRuns: 300 },
    );
  });

  it.each([31, 32, 33, 64, 65])('handles %i identical tokens', (n) => {
    const list = Array.from({ length: n }, (_, i) => `t${i % 7}`);
    expect(lcsLength(list, [...list])).toBe(n);
  });
});
