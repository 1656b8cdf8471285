import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignmentTotal, maximizeAssignment } from './assignment.js';

/** The best total over every one-to-one assignment of min(rows, cols) pairs, by enumeration. */
function bruteForceOptimum(weights: number[], rows: number, cols: number): number {
  let best = -Infinity;
  const usedCols = new Array<boolean>(cols).fill(false);
  const visit = (row: number, pairsLeft: number, total: number): void => {
    if (pairsLeft === 0) {
      best = Math.max(best, total);
      return;
    }
    if (rows - row < pairsLeft) return;
    if (rows - row > pairsLeft) visit(row + 1, pairsLeft, total); // leave this row unassigned
    for (let c = 0; c < cols; c++) {
      if (usedCols[c]) continue;
      usedCols[c] = true;
      visit(row + 1, pairsLeft - 1, total + weights[row * cols + c]!);
      usedCols[c] = false;
    }
  };
  visit(0, Math.min(rows, cols), 0);
  return best;
}

function expectValidAssignment(rowToCol: Int32Array, rows: number, cols: number): void {
  expect(rowToCol.length).toBe(rows);
  const assigned = [...rowToCol].filter((c) => c >= 0);
  expect(assigned.length).toBe(Math.min(rows, cols));
  expect(new Set(assigned).size).toBe(assigned.length);
  for (const c of assigned) expect(c).toBeLessThan(cols);
}

describe('maximizeAssignment', () => {
  it.each<[string, number[][], number[]]>([
    [
      'not greedy',
      [
        [1, 1],
        [1, 0],
      ],
      [1, 0],
    ],
    [
      'identity',
      [
        [5, 1],
        [1, 5],
      ],
      [0, 1],
    ],
    [
      'swap',
      [
        [1, 5],
        [5, 1],
      ],
      [1, 0],
    ],
    [
      'more columns than rows',
      [
        [0, 0, 9],
        [0, 8, 0],
      ],
      [2, 1],
    ],
    ['more rows than columns', [[1], [7], [3]], [-1, 0, -1]],
    [
      'ties keep the order',
      [
        [1, 1, 1],
        [1, 1, 1],
        [1, 1, 1],
      ],
      [0, 1, 2],
    ],
    [
      'negative weights',
      [
        [-1, -5],
        [-5, -1],
      ],
      [0, 1],
    ],
    [
      'the BFCL counter-example: expected A accepts x in {1, 2}, B only 1; actual [x=1, x=2]',
      [
        [2, 2],
        [2, 1],
      ],
      [1, 0],
    ],
  ])('%s', (_name, matrix, expected) => {
    const rows = matrix.length;
    const cols = matrix[0]!.length;
    expect([...maximizeAssignment(matrix.flat(), rows, cols)]).toEqual(expected);
  });

  it('handles empty matrices', () => {
    expect([...maximizeAssignment([], 0, 3)]).toEqual([]);
    expect([...maximizeAssignment([], 2, 0)]).toEqual([-1, -1]);
  });

  it('equals the brute-force optimum on random matrices up to 6x6', () => {
    const matrix = fc.record({ rows: fc.integer({ min: 1, max: 6 }), cols: fc.integer({ min: 1, max: 6 }) }).chain(({ rows, cols }) =>
      fc.record({
        rows: fc.constant(rows),
        cols: fc.constant(cols),
        // small integers force many ties; doubles cover the general case
        weights: fc.oneof(
          fc.array(fc.integer({ min: 0, max: 3 }), { minLength: rows * cols, maxLength: rows * cols }),
          fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: rows * cols, maxLength: rows * cols }),
        ),
      }),
    );
    fc.assert(
      fc.property(matrix, ({ rows, cols, weights }) => {
        const rowToCol = maximizeAssignment(weights, rows, cols);
        expectValidAssignment(rowToCol, rows, cols);
        expect(assignmentTotal(weights, cols, rowToCol)).toBeCloseTo(bruteForceOptimum(weights, rows, cols), 9);
        expect([...maximizeAssignment(weights, rows, cols)]).toEqual([...rowToCol]); // deterministic
      }),
      { numRuns: 400 },
    );
  });
});
