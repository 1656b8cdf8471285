import type { Rating } from './krippendorffAlpha.js';

type Label = string | number | boolean;

export interface ItemConsensus {
  item: string;
  labels: number;
  /** the most frequent label (numbers: the median when `numeric`), null on a tie for the most frequent label */
  consensus: Label | null;
  /** share of the item's labels equal to the consensus (0 when there is none) */
  support: number;
}

/**
 * Per-item consensus: the majority label (a tie gives null: no consensus), or with `numeric` the median of numeric
 * labels (the mean of the two middle ones for an even count). Items in first-seen order.
 */
export function consensusByItem(ratings: readonly Rating[], options: { numeric?: boolean } = {}): ItemConsensus[] {
  const byItem = groupByItem(ratings);
  return [...byItem].map(([item, labels]) => {
    const consensus = options.numeric ? median(labels) : majority(labels);
    const support = consensus === null ? 0 : labels.filter((l) => same(l, consensus)).length / labels.length;
    return { item, labels: labels.length, consensus, support };
  });
}

export interface AnnotatorAgreement {
  annotator: string;
  /** items where the other annotators (at least one) have a majority label */
  compared: number;
  /** share of those items where this annotator gave the other annotators' majority label (null when none compared) */
  agreement: number | null;
}

/** Each annotator against the leave-one-out majority of the others on the same item (ties of the others skipped). */
export function annotatorAgreementWithConsensus(ratings: readonly Rating[]): AnnotatorAgreement[] {
  const byItem = new Map<string, Rating[]>();
  for (const r of ratings) byItem.set(r.item, [...(byItem.get(r.item) ?? []), r]);
  const tally = new Map<string, { compared: number; agreed: number }>();
  for (const r of ratings) if (!tally.has(r.annotator)) tally.set(r.annotator, { compared: 0, agreed: 0 });
  for (const rs of byItem.values()) {
    for (const r of rs) {
      const others = rs.filter((o) => o.annotator !== r.annotator).map((o) => o.label);
      const m = others.length > 0 ? majority(others) : null;
      if (m === null) continue;
      const t = tally.get(r.annotator)!;
      t.compared++;
      if (same(r.label, m)) t.agreed++;
    }
  }
  return [...tally].map(([annotator, t]) => ({
    annotator,
    compared: t.compared,
    agreement: t.compared > 0 ? t.agreed / t.compared : null,
  }));
}

function groupByItem(ratings: readonly Rating[]): Map<string, Label[]> {
  const byItem = new Map<string, Label[]>();
  for (const r of ratings) byItem.set(r.item, [...(byItem.get(r.item) ?? []), r.label]);
  return byItem;
}

const same = (a: Label, b: Label): boolean => typeof a === typeof b && String(a) === String(b);

function majority(labels: readonly Label[]): Label | null {
  const counts = new Map<string, { label: Label; n: number }>();
  for (const l of labels) {
    const key = `${typeof l}:${String(l)}`;
    const c = counts.get(key);
    if (c) c.n++;
    else counts.set(key, { label: l, n: 1 });
  }
  const sorted = [...counts.values()].sort((a, b) => b.n - a.n);
  if (sorted.length === 0) return null;
  if (sorted.length > 1 && sorted[1]!.n === sorted[0]!.n) return null;
  return sorted[0]!.label;
}

function median(labels: readonly Label[]): number | null {
  const xs = labels.filter((l): l is number => typeof l === 'number' && Number.isFinite(l)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 === 1 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
}
