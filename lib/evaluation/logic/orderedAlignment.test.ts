import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignmentTotal } from '../match/assignment.js';
import { maximizeOrderedAlignment } from './orderedAlignment.js';

/** Best total over every order-preserving set of pairs with positive weight, by enumeration. */
function bruteForceOrdered(weights: number[], rows: number, cols: number): number {
  const visit = (row: number, minCol: number): number => {
    if (row === rows) return 0;
    let best = visit(row + 1, minCol);
    for (let c = minCol; c < cols; c++) {
      const w = weights[row * cols + c]!;
      if (w > 0) best = Math.max(best, w + visit(row + 1, c + 1));
    }
    return best;
  };
  return visit(0, 0);
}

describe('maximizeOrderedAlignment', () => {
  it.each<[string, number[][], number[]]>([
    [
      'in order',
      [
        [2, 0],
        [0, 2],
      ],
      [0, 1],
    ],
    [
      'crossed pairs: only one can be kept',
      [
        [0, 2],
        [2, 0],
      ],
      [1, -1],
    ],
    [
      'a skipped column',
      [
        [0, 2, 0],
        [0, 0, 2],
      ],
      [1, 2],
    ],
    [
      'zero weight is never paired',
      [
        [0, 0],
        [0, 0],
      ],
      [-1, -1],
    ],
    [
      'the heavier of two crossing pairs wins',
      [
        [0, 3],
        [2, 0],
      ],
      [1, -1],
    ],
  ])('%s', (_name, matrix, expected) => {
    expect([...maximizeOrderedAlignment(matrix.flat(), matrix.length, matrix[0]!.length)]).toEqual(expected);
  });

  it('equals the brute-force optimum and keeps order, on random matrices up to 6x6', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }).chain((rows) =>
          fc.integer({ min: 1, max: 6 }).chain((cols) =>
            fc.tuple(
              fc.constant(rows),
              fc.constant(cols),
              fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 }), fc.double({ min: 0, max: 2, noNaN: true })), {
                minLength: rows * cols,
                maxLength: rows * cols,
              }),
            ),
          ),
        ),
        ([rows, cols, weights]) => {
          const rowToCol = maximizeOrderedAlignment(weights, rows, cols);
          const pairs = [...rowToCol].map((c, r) => [r, c] as const).filter(([, c]) => c >= 0);
          for (let i = 1; i < pairs.length; i++) expect(pairs[i]![1]).toBeGreaterThan(pairs[i - 1]![1]);
          for (const [r, c] of pairs) expect(weights[r * cols + c]).toBeGreaterThan(0);
          expect(assignmentTotal(weights, cols, rowToCol)).toBeCloseTo(bruteForceOrdered(weights, rows, cols), 9);
        },
      ),
      { numRuns: 300 },
    );
  });
});
