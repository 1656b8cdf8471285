/**
 * Indexes of the cells written as `""` (a quoted empty string) in one raw CSV record (`,` delimiter, `"` quotes).
 * csv-parse gives both `""` and an empty cell as '', and its per-field `cast` hook (which could tell them apart) costs
 * ~10x the whole parse, so the few records that have both an empty cell and a `""` are re-scanned here instead.
 */
export function quotedEmptyCells(raw: string): Set<number> {
  const cells = new Set<number>();
  const n = raw.length;
  // the parser's raw text of a record may begin with the line ends of skipped blank lines
  let i = 0;
  while (raw[i] === '\r' || raw[i] === '\n') i += 1;
  for (let cell = 0; ; cell += 1) {
    if (raw[i] === '"') {
      if (raw[i + 1] === '"' && isCellEnd(raw, i + 2)) cells.add(cell);
      i += 1;
      while (i < n) {
        if (raw[i] !== '"') i += 1;
        else if (raw[i + 1] === '"') i += 2;
        else {
          i += 1;
          break;
        }
      }
    } else {
      while (i < n && raw[i] !== ',' && raw[i] !== '\n' && raw[i] !== '\r') i += 1;
    }
    if (raw[i] !== ',') return cells;
    i += 1;
  }
}

/** True when `raw` may hold a `""` cell: worth the scan above. */
export function mayHaveQuotedEmpty(raw: string): boolean {
  return /(?:^|,|\n)""(?:,|\r|\n|$)/.test(raw);
}

function isCellEnd(raw: string, i: number): boolean {
  return i >= raw.length || raw[i] === ',' || raw[i] === '\n' || raw[i] === '\r';
}
