import type { ExpectedValue } from '../../domain/expected.js';
import { maximizeAssignment } from './assignment.js';
import { childPointer } from './jsonPointer.js';
import { allPassed, failExtra, failMissing, merge, newState, ratio, type WalkState } from './walkState.js';

/** Compares expected element `e` with actual element `a`, tallying into `sub`. */
export type PairWalker = (e: number, a: number, sub: WalkState) => void;

/**
 * Unordered arrays: elements are paired by an optimal one-to-one assignment that maximises the sum of the pairs'
 * scores (never greedy). Unpaired expected elements are `missing` at `<array>/-` (RFC 6901: past the end), unpaired
 * actual elements `extra` at their actual index; a paired element's entries use the actual index. When every element
 * matched but not in order, one `coerced` entry with `unordered_array` is added at the array's path.
 */
export function matchUnordered(expected: readonly ExpectedValue[], actual: readonly unknown[], path: string, st: WalkState, walkPair: PairWalker): void {
  const rows = expected.length;
  const cols = actual.length;
  if (rows === cols) {
    const inOrder = newState(st.cfg);
    for (let i = 0; i < rows; i++) walkPair(i, i, inOrder);
    if (allPassed(inOrder)) return merge(st, inOrder);
  }
  const pairs: WalkState[] = new Array<WalkState>(rows * cols);
  const weights = new Float64Array(rows * cols);
  for (let e = 0; e < rows; e++) {
    for (let a = 0; a < cols; a++) {
      const sub = newState(st.cfg);
      walkPair(e, a, sub);
      pairs[e * cols + a] = sub;
      weights[e * cols + a] = ratio(sub);
    }
  }
  const rowToCol = maximizeAssignment(weights, rows, cols);
  const used = new Uint8Array(cols);
  let everyPairPassed = rows === cols;
  let reordered = false;
  for (let e = 0; e < rows; e++) {
    const a = rowToCol[e]!;
    if (a < 0) {
      failMissing(st, `${path}/-`, expected[e]!);
      continue;
    }
    used[a] = 1;
    const sub = pairs[e * cols + a]!;
    merge(st, sub);
    if (!allPassed(sub)) everyPairPassed = false;
    if (a !== e) reordered = true;
  }
  for (let a = 0; a < cols; a++) if (used[a] === 0) failExtra(st, childPointer(path, a), actual[a]);
  if (everyPairPassed && reordered) {
    st.entries.push({ path, kind: 'coerced', coercions: ['unordered_array'], message: 'elements matched in another order' });
  }
}
