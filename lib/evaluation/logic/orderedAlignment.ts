/**
 * Optimal order-preserving assignment: pairs (r, c) with strictly increasing rows and columns, maximising the
 * total weight (a weighted longest common subsequence, O(rows·cols)). Pairs of weight <= 0 are never used.
 * Used for `call_order: 'strict'`. Deterministic: the same matrix always gives the same pairs.
 *
 * @returns rowToCol: the column assigned to each row, or -1.
 */
export function maximizeOrderedAlignment(weights: ArrayLike<number>, rows: number, cols: number): Int32Array {
  const rowToCol = new Int32Array(rows).fill(-1);
  if (rows === 0 || cols === 0) return rowToCol;
  const width = cols + 1;
  const best = new Float64Array((rows + 1) * width); // best[i][j]: optimum over the first i rows and j columns
  for (let i = 1; i <= rows; i++) {
    for (let j = 1; j <= cols; j++) {
      let value = Math.max(best[(i - 1) * width + j]!, best[i * width + j - 1]!);
      const w = weights[(i - 1) * cols + j - 1]!;
      if (w > 0) value = Math.max(value, best[(i - 1) * width + j - 1]! + w);
      best[i * width + j] = value;
    }
  }
  let i = rows;
  let j = cols;
  while (i > 0 && j > 0) {
    const here = best[i * width + j]!;
    const w = weights[(i - 1) * cols + j - 1]!;
    if (w > 0 && here === best[(i - 1) * width + j - 1]! + w) {
      rowToCol[i - 1] = j - 1;
      i--;
      j--;
    } else if (here === best[(i - 1) * width + j]!) {
      i--;
    } else {
      j--;
    }
  }
  return rowToCol;
}
