export interface CohenKappaResult {
  kappa: number | null;
  observedAgreement: number;
  expectedAgreement: number;
  n: number;
  /** the labels in table order and the table: rows rater A, columns rater B */
  labels: string[];
  table: number[][];
}

/**
 * Cohen's kappa (Cohen 1960, Educ Psychol Meas 20:37) for two raters labelling the same items:
 * (p_o - p_e) / (1 - p_e), p_e from the two raters' own margins. null when p_e = 1 (both always used one label).
 * `order` fixes the table's label order (labels not in it follow, sorted).
 */
export function cohenKappa(
  pairs: readonly (readonly [string | number | boolean, string | number | boolean])[],
  order: readonly string[] = [],
): CohenKappaResult {
  if (pairs.length === 0) throw new RangeError('pairs: need at least one item labelled by both raters');
  const seen = new Set<string>();
  for (const [a, b] of pairs) seen.add(String(a)).add(String(b));
  const labels = [...order.filter((l) => seen.has(l)), ...[...seen].filter((l) => !order.includes(l)).sort()];
  const index = new Map(labels.map((l, i) => [l, i]));
  const table = labels.map(() => new Array<number>(labels.length).fill(0));
  for (const [a, b] of pairs) table[index.get(String(a))!]![index.get(String(b))!]!++;
  return kappaFromTable(table, labels);
}

/** Cohen's kappa from a square contingency table (rows rater A, columns rater B), counts or proportions. */
export function kappaFromTable(table: readonly (readonly number[])[], labels?: readonly string[]): CohenKappaResult {
  const k = table.length;
  table.forEach((row, i) => {
    if (row.length !== k) throw new RangeError(`table[${i}]: expected a square table of ${k} columns, got ${row.length}`);
  });
  const n = table.reduce((s, row) => s + row.reduce((t, x) => t + x, 0), 0);
  if (!(n > 0)) throw new RangeError('table: needs a positive total');
  let agree = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    agree += table[i]![i]!;
    const rowTotal = table[i]!.reduce((s, x) => s + x, 0);
    const colTotal = table.reduce((s, row) => s + row[i]!, 0);
    expected += (rowTotal / n) * (colTotal / n);
  }
  const po = agree / n;
  return {
    kappa: expected < 1 ? (po - expected) / (1 - expected) : null,
    observedAgreement: po,
    expectedAgreement: expected,
    n,
    labels: labels ? [...labels] : table.map((_, i) => String(i)),
    table: table.map((row) => [...row]),
  };
}
