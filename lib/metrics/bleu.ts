import { tokenize13a } from './tokenize13a.js';

/** BLEU sufficient statistics of one segment or a corpus (n-gram orders 1-4). */
export interface BleuStatistics {
  correct: number[];
  total: number[];
  sysLen: number;
  refLen: number;
}

export interface BleuScore {
  /** 0-100, as sacreBLEU prints it */
  score: number;
  precisions: number[];
  brevityPenalty: number;
  sysLen: number;
  refLen: number;
}

const MAX_ORDER = 4;

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join('\u0001');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * sacreBLEU's segment statistics: hypothesis n-grams clipped by the most any one reference has; reference length
 * = the reference length closest to the hypothesis length (ties: the shorter).
 */
export function bleuStatistics(hypothesis: string, references: readonly string[]): BleuStatistics {
  if (references.length === 0) throw new RangeError('references: need at least one reference');
  const hyp = tokenize13a(hypothesis);
  const refs = references.map(tokenize13a);
  let refLen = -1;
  let closest = Infinity;
  for (const ref of refs) {
    const diff = Math.abs(hyp.length - ref.length);
    if (diff < closest) {
      closest = diff;
      refLen = ref.length;
    } else if (diff === closest) {
      refLen = Math.min(refLen, ref.length);
    }
  }
  const correct: number[] = [];
  const total: number[] = [];
  for (let n = 1; n <= MAX_ORDER; n++) {
    const maxRef = new Map<string, number>();
    for (const ref of refs) for (const [g, c] of ngramCounts(ref, n)) maxRef.set(g, Math.max(maxRef.get(g) ?? 0, c));
    let match = 0;
    for (const [g, c] of ngramCounts(hyp, n)) match += Math.min(c, maxRef.get(g) ?? 0);
    correct.push(match);
    total.push(Math.max(0, hyp.length - n + 1));
  }
  return { correct, total, sysLen: hyp.length, refLen };
}

/**
 * sacreBLEU's compute_bleu with its defaults: `exp` smoothing (each order with no match gets 1 / (2^k · total),
 * k counting such orders, as mteval-v13a), brevity penalty exp(1 - r/c) when c < r, geometric mean of the
 * precisions. No match at all scores 0. `effectiveOrder` (sentence BLEU's default) averages only over the orders
 * the hypothesis has n-grams for.
 */
export function computeBleu(stats: BleuStatistics, options: { effectiveOrder?: boolean } = {}): BleuScore {
  const { sysLen, refLen } = stats;
  const brevityPenalty = sysLen < refLen ? (sysLen > 0 ? Math.exp(1 - refLen / sysLen) : 0) : 1;
  const precisions = new Array<number>(MAX_ORDER).fill(0);
  if (!stats.correct.some((c) => c > 0)) return { score: 0, precisions, brevityPenalty, sysLen, refLen };
  let smooth = 1;
  let order = MAX_ORDER;
  for (let n = 1; n <= MAX_ORDER; n++) {
    const total = stats.total[n - 1]!;
    if (total === 0) break;
    if (options.effectiveOrder) order = n;
    const correct = stats.correct[n - 1]!;
    if (correct === 0) {
      smooth *= 2;
      precisions[n - 1] = 100 / (smooth * total);
    } else {
      precisions[n - 1] = (100 * correct) / total;
    }
  }
  const logSum = precisions.slice(0, order).reduce((s, p) => s + (p === 0 ? -9999999999 : Math.log(p)), 0);
  return { score: brevityPenalty * Math.exp(logSum / order), precisions, brevityPenalty, sysLen, refLen };
}

/** sacrebleu.sentence_bleu(hypothesis, references): 13a, exp smoothing, effective order. */
export function sentenceBleu(hypothesis: string, references: readonly string[]): BleuScore {
  return computeBleu(bleuStatistics(hypothesis, references), { effectiveOrder: true });
}

/** sacrebleu.corpus_bleu(hypotheses, [refs_1, refs_2, ...]): statistics summed over segments, no effective order. */
export function corpusBleu(hypotheses: readonly string[], referenceStreams: readonly (readonly string[])[]): BleuScore {
  const sum: BleuStatistics = { correct: [0, 0, 0, 0], total: [0, 0, 0, 0], sysLen: 0, refLen: 0 };
  hypotheses.forEach((hyp, i) => {
    const s = bleuStatistics(
      hyp,
      referenceStreams.map((stream) => {
        const ref = stream[i];
        if (ref === undefined) throw new RangeError(`references: stream lengths differ from the ${hypotheses.length} hypotheses`);
        return ref;
      }),
    );
    for (let n = 0; n < MAX_ORDER; n++) {
      sum.correct[n]! += s.correct[n]!;
      sum.total[n]! += s.total[n]!;
    }
    sum.sysLen += s.sysLen;
    sum.refLen += s.refLen;
  });
  return computeBleu(sum);
}
