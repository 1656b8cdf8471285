import { lcsLength } from './rougeL.js';

export interface RougeResult {
  precision: number;
  recall: number;
  fmeasure: number;
}

/**
 * Google's rouge-score tokenizer (tokenize.py, no stemmer: the package default): lower-case, every run of
 * characters other than a-z and 0-9 becomes a space, split. (Non-ASCII letters are dropped, as there.)
 */
export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((t) => t !== '');
}

function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

function ngrams(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** ROUGE-N (Lin 2004) as rouge-score's `score(target, prediction)`: clipped n-gram overlap, P, R and F1. */
export function rougeN(target: string, prediction: string, n: number): RougeResult {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n: need an integer >= 1, got ${n}`);
  const t = ngrams(rougeTokens(target), n);
  const p = ngrams(rougeTokens(prediction), n);
  let overlap = 0;
  for (const [g, c] of p) overlap += Math.min(c, t.get(g) ?? 0);
  const total = (m: Map<string, number>) => [...m.values()].reduce((s, x) => s + x, 0);
  const precision = overlap / Math.max(total(p), 1);
  const recall = overlap / Math.max(total(t), 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** ROUGE-L (sentence level): longest common subsequence of tokens, P, R and F1 (rouge-score's `rougeL`). */
export function rougeLScore(target: string, prediction: string): RougeResult {
  const t = rougeTokens(target);
  const p = rougeTokens(prediction);
  if (t.length === 0 || p.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  const lcs = lcsLength(t, p);
  const precision = lcs / p.length;
  const recall = lcs / t.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}
