/**
 * Optimal one-to-one assignment (Kuhn-Munkres / Hungarian algorithm with potentials, O(n²·m)) for a rectangular
 * weight matrix, maximising the total weight. Never greedy: `[[1, 1], [1, 0]]` assigns row 0 → column 1 and
 * row 1 → column 0 (total 2), where a greedy pass would take row 0 → column 0 and be stuck with 0.
 *
 * `weights` is row-major (`weights[r * cols + c]`). Exactly min(rows, cols) pairs are assigned; the caller drops
 * pairs it considers invalid (e.g. weight 0). Deterministic: the same matrix always gives the same assignment,
 * and among equal candidates the lowest column index wins, so equal rows map to columns in order.
 *
 * @returns rowToCol: the column assigned to each row, or -1 when the row is left unassigned (rows > cols).
 */
export function maximizeAssignment(weights: ArrayLike<number>, rows: number, cols: number): Int32Array {
  const rowToCol = new Int32Array(rows).fill(-1);
  if (rows === 0 || cols === 0) return rowToCol;
  if (rows <= cols) {
    const colOfRow = hungarianMin(rows, cols, (r, c) => -weights[r * cols + c]!);
    rowToCol.set(colOfRow);
    return rowToCol;
  }
  // more rows than columns: solve the transpose, so the smaller side is the one fully assigned
  const rowOfCol = hungarianMin(cols, rows, (c, r) => -weights[r * cols + c]!);
  for (let c = 0; c < cols; c++) rowToCol[rowOfCol[c]!] = c;
  return rowToCol;
}

/** The sum of the weights of an assignment (unassigned rows contribute 0). */
export function assignmentTotal(weights: ArrayLike<number>, cols: number, rowToCol: Int32Array): number {
  let total = 0;
  for (let r = 0; r < rowToCol.length; r++) {
    const c = rowToCol[r]!;
    if (c >= 0) total += weights[r * cols + c]!;
  }
  return total;
}

/** Minimum-cost assignment of n rows into m >= n columns; returns the column of each row. */
function hungarianMin(n: number, m: number, cost: (row: number, col: number) => number): Int32Array {
  // 1-based potentials and matching as in the classic formulation; column 0 is a virtual start.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const rowOfCol = new Int32Array(m + 1); // 1-based row matched to column j, 0 = free
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    rowOfCol[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = rowOfCol[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const reduced = cost(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (reduced < minv[j]!) {
          minv[j] = reduced;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          const row = rowOfCol[j]!;
          u[row] = u[row]! + delta;
          v[j] = v[j]! - delta;
        } else {
          minv[j] = minv[j]! - delta;
        }
      }
      j0 = j1;
    } while (rowOfCol[j0] !== 0);
    do {
      const j1 = way[j0]!;
      rowOfCol[j0] = rowOfCol[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const colOfRow = new Int32Array(n);
  for (let j = 1; j <= m; j++) if (rowOfCol[j]! > 0) colOfRow[rowOfCol[j]! - 1] = j - 1;
  return colOfRow;
}
