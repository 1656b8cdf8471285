import type { Rating } from './krippendorffAlpha.js';

export interface FleissKappaResult {
  kappa: number | null;
  /** P-bar: mean agreement over subjects */
  observedAgreement: number;
  /** P_e: sum of squared category proportions */
  expectedAgreement: number;
  subjects: number;
  ratersPerSubject: number;
  categories: number;
}

/**
 * Fleiss' kappa (Fleiss 1971, Psychol Bull 76:378, eqs. 2-9) from a subjects-by-categories table of counts: every
 * subject rated by the same number n >= 2 of raters (not necessarily the same raters). kappa = (P - P_e) / (1 - P_e);
 * null when P_e = 1 (everyone used one category).
 */
export function fleissKappa(counts: readonly (readonly number[])[]): FleissKappaResult {
  if (counts.length === 0) throw new RangeError('counts: need at least one subject');
  const categories = counts[0]!.length;
  const n = counts[0]!.reduce((s, x) => s + x, 0);
  if (n < 2) throw new RangeError('counts: each subject needs at least two ratings');
  const totals = new Array<number>(categories).fill(0);
  let sumP = 0;
  counts.forEach((row, i) => {
    if (row.length !== categories) throw new RangeError(`counts[${i}]: expected ${categories} categories, got ${row.length}`);
    let rowTotal = 0;
    let squares = 0;
    row.forEach((x, j) => {
      if (!Number.isInteger(x) || x < 0) throw new RangeError(`counts[${i}][${j}]: need a count >= 0, got ${x}`);
      rowTotal += x;
      squares += x * x;
      totals[j]! += x;
    });
    if (rowTotal !== n) {
      throw new RangeError(`counts[${i}]: every subject needs the same number of ratings (${n}), got ${rowTotal}`);
    }
    sumP += (squares - n) / (n * (n - 1));
  });
  const N = counts.length;
  const P = sumP / N;
  const Pe = totals.reduce((s, t) => s + (t / (N * n)) ** 2, 0);
  return {
    kappa: Pe < 1 ? (P - Pe) / (1 - Pe) : null,
    observedAgreement: P,
    expectedAgreement: Pe,
    subjects: N,
    ratersPerSubject: n,
    categories,
  };
}

/**
 * The count table of ratings (items in first-seen order, categories sorted), or null when the items do not all have
 * the same number (>= 2) of labels, the condition for Fleiss' kappa.
 */
export function fleissTable(ratings: readonly Rating[]): { items: string[]; categories: string[]; counts: number[][] } | null {
  const byItem = new Map<string, Map<string, number>>();
  const categories = new Set<string>();
  for (const r of ratings) {
    const label = String(r.label);
    categories.add(label);
    let row = byItem.get(r.item);
    if (!row) byItem.set(r.item, (row = new Map()));
    row.set(label, (row.get(label) ?? 0) + 1);
  }
  const sizes = new Set([...byItem.values()].map((row) => [...row.values()].reduce((s, x) => s + x, 0)));
  if (sizes.size !== 1 || [...sizes][0]! < 2) return null;
  const cats = [...categories].sort();
  return {
    items: [...byItem.keys()],
    categories: cats,
    counts: [...byItem.values()].map((row) => cats.map((c) => row.get(c) ?? 0)),
  };
}
