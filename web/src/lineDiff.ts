/** One row of a side-by-side diff: a line on the left, the right, or both (equal). */
export interface DiffRow {
  left: string | null;
  right: string | null;
  kind: 'same' | 'removed' | 'added' | 'changed';
}

/**
 * Side-by-side line diff (longest common subsequence; a removed line followed by an added one is shown as a
 * change on one row). Inputs are small (pretty-printed calls), so O(n·m) is fine; beyond 2,000 lines a side the
 * lines are paired by position.
 */
export function lineDiff(left: readonly string[], right: readonly string[]): DiffRow[] {
  if (left.length > 2000 || right.length > 2000) {
    return Array.from({ length: Math.max(left.length, right.length) }, (_, i) => {
      const l = left[i] ?? null;
      const r = right[i] ?? null;
      return { left: l, right: r, kind: l === r ? 'same' : l === null ? 'added' : r === null ? 'removed' : 'changed' };
    });
  }
  const n = left.length;
  const m = right.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      lcs[i]![j] = left[i] === right[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const raw: DiffRow[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && left[i] === right[j]) {
      raw.push({ left: left[i]!, right: right[j]!, kind: 'same' });
      i += 1;
      j += 1;
    } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      raw.push({ left: null, right: right[j]!, kind: 'added' });
      j += 1;
    } else {
      raw.push({ left: left[i]!, right: null, kind: 'removed' });
      i += 1;
    }
  }
  // pair runs of removed lines with the added lines right after them
  const rows: DiffRow[] = [];
  for (let k = 0; k < raw.length;) {
    if (raw[k]!.kind !== 'removed') {
      rows.push(raw[k]!);
      k += 1;
      continue;
    }
    const removed: string[] = [];
    while (k < raw.length && raw[k]!.kind === 'removed') removed.push(raw[k++]!.left!);
    const added: string[] = [];
    while (k < raw.length && raw[k]!.kind === 'added') added.push(raw[k++]!.right!);
    for (let p = 0; p < Math.max(removed.length, added.length); p += 1) {
      const l = removed[p] ?? null;
      const r = added[p] ?? null;
      rows.push({ left: l, right: r, kind: l !== null && r !== null ? 'changed' : l !== null ? 'removed' : 'added' });
    }
  }
  return rows;
}

/** Key-sorted, two-space JSON lines, so equal values print equally. */
export function prettyLines(value: unknown): string[] {
  return JSON.stringify(sortKeys(value), null, 2).split('\n');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}
