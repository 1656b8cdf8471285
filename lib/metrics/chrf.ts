/**
 * chrF (Popović 2015) as sacreBLEU computes it: character n-grams of orders 1..charOrder (default 6) over the text
 * with whitespace removed, F-beta with beta = 2 (chrF2). Default (sacreBLEU's): precision and recall averaged over
 * the orders both sides have n-grams for, then one F-score ("effective order"). `epsSmoothing` instead averages
 * the per-order F-scores over all orders, an order with no n-grams contributing 1e-16 (chrF++.py / NLTK).
 * Returns 0-100.
 */
export interface ChrfOptions {
  charOrder?: number;
  beta?: number;
  epsSmoothing?: boolean;
  includeWhitespace?: boolean;
}

function charNgrams(text: string, n: number): Map<string, number> {
  const chars = [...text];
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= chars.length; i++) {
    const key = chars.slice(i, i + n).join('');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** [hyp n-grams, ref n-grams, matches] for each order. */
export function chrfStatistics(hypothesis: string, reference: string, options: ChrfOptions = {}): number[][] {
  const order = options.charOrder ?? 6;
  const prep = (s: string) => (options.includeWhitespace ? s : s.split(/\s+/).join(''));
  const hyp = prep(hypothesis);
  const ref = prep(reference);
  const stats: number[][] = [];
  for (let n = 1; n <= order; n++) {
    const h = charNgrams(hyp, n);
    const r = charNgrams(ref, n);
    let match = 0;
    for (const [g, c] of h) match += Math.min(c, r.get(g) ?? 0);
    const sum = (m: Map<string, number>) => [...m.values()].reduce((s, x) => s + x, 0);
    stats.push([sum(h), sum(r), match]);
  }
  return stats;
}

export function chrfFromStatistics(stats: readonly (readonly number[])[], options: ChrfOptions = {}): number {
  const eps = 1e-16;
  const factor = (options.beta ?? 2) ** 2;
  let score = 0;
  let avgPrec = 0;
  let avgRec = 0;
  let effective = 0;
  for (const [nHyp, nRef, nMatch] of stats) {
    const prec = nHyp! > 0 ? nMatch! / nHyp! : eps;
    const rec = nRef! > 0 ? nMatch! / nRef! : eps;
    const denom = factor * prec + rec;
    score += denom > 0 ? ((1 + factor) * prec * rec) / denom : eps;
    if (nHyp! > 0 && nRef! > 0) {
      avgPrec += prec;
      avgRec += rec;
      effective++;
    }
  }
  if (options.epsSmoothing) return (100 * score) / stats.length;
  if (effective === 0) return 0;
  avgPrec /= effective;
  avgRec /= effective;
  if (avgPrec + avgRec === 0) return 0;
  return (100 * (1 + factor) * avgPrec * avgRec) / (factor * avgPrec + avgRec);
}

export function sentenceChrf(hypothesis: string, reference: string, options: ChrfOptions = {}): number {
  return chrfFromStatistics(chrfStatistics(hypothesis, reference, options), options);
}

/** Statistics summed over segments, then one score (sacrebleu.corpus_chrf). */
export function corpusChrf(hypotheses: readonly string[], references: readonly string[], options: ChrfOptions = {}): number {
  if (hypotheses.length !== references.length) throw new RangeError('references: one reference per hypothesis');
  const order = options.charOrder ?? 6;
  const sum = Array.from({ length: order }, () => [0, 0, 0]);
  hypotheses.forEach((h, i) => {
    chrfStatistics(h, references[i]!, options).forEach((s, n) => s.forEach((x, k) => (sum[n]![k]! += x)));
  });
  return chrfFromStatistics(sum, options);
}
