/** ROUGE-L (Lin, 2004): longest common subsequence of tokens, as precision, recall and F1 (beta = 1). */
export interface RougeScore {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Length of the longest common subsequence of two token lists, bit-parallel (Crochemore et al., 2001):
 * one bit per token of the shorter list, O(n·⌈m/32⌉) word operations; tokens of the longer list that the
 * shorter one lacks cost nothing. Equal to the textbook O(n·m) dynamic programme (property-tested).
 */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  const m = short.length;
  if (m === 0) return 0;
  const words = Math.ceil(m / 32);
  // match masks: bit j of a token's mask is set when short[j] is that token
  const masks = new Map<string, Uint32Array>();
  for (let j = 0; j < m; j++) {
    const token = short[j]!;
    let mask = masks.get(token);
    if (!mask) masks.set(token, (mask = new Uint32Array(words)));
    mask[j >>> 5]! |= 1 << (j & 31);
  }
  const v = new Uint32Array(words).fill(0xffffffff);
  for (let i = 0; i < long.length; i++) {
    const mask = masks.get(long[i]!);
    if (!mask) continue;
    // V = (V + (V & M)) | (V & ~M), with the carry running across words
    let carry = 0;
    for (let k = 0; k < words; k++) {
      const vk = v[k]!;
      const mk = mask[k]!;
      const sum = vk + ((vk & mk) >>> 0) + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[k] = ((sum >>> 0) | (vk & ~mk)) >>> 0;
    }
  }
  let ones = 0;
  for (let k = 0; k < words; k++) {
    const bits = k === words - 1 && m % 32 !== 0 ? m % 32 : 32;
    const word = bits === 32 ? v[k]! : v[k]! & ((1 << bits) - 1);
    ones += popcount(word);
  }
  return m - ones;
}

function popcount(x: number): number {
  let n = x - ((x >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** ROUGE-L of a candidate against a reference (both already tokenised). Empty inputs score 0. */
export function rougeL(candidate: readonly string[], reference: readonly string[]): RougeScore {
  const lcs = lcsLength(candidate, reference);
  if (lcs === 0) return { precision: 0, recall: 0, f1: 0 };
  const precision = lcs / candidate.length;
  const recall = lcs / reference.length;
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}
