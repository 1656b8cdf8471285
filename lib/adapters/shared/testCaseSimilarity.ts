/**
 * The similarity score of the embedded near-duplicate search (pure): the cosine of two texts' character-trigram
 * count vectors after normalisation. Normalising (Unicode NFKD, accents dropped, lower case, every run of
 * characters that are not letters or digits turned into one space) makes the same question score 1 whatever its
 * case, accents, punctuation and spacing; trigrams make a typo or a changed word cost a little, not everything.
 */

const MARKS = /\p{M}+/gu;
const NON_WORD = /[^\p{L}\p{N}]+/gu;

/** `"Où est  l'hôtel?"` -> `"ou est l hotel"`. */
export function normalizeForSimilarity(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(NON_WORD, ' ').trim();
}

/** The words of a text as the full-text index sees them (normalised, split at non-letters), each once. */
export function similarityTerms(text: string): string[] {
  const normalized = normalizeForSimilarity(text);
  return normalized === '' ? [] : [...new Set(normalized.split(' '))];
}

/** Trigram counts of the normalised text padded with one space each side (so word starts and ends count). */
export type TrigramVector = Map<string, number>;

export function trigramVector(text: string): TrigramVector {
  const normalized = normalizeForSimilarity(text);
  const vector: TrigramVector = new Map();
  if (normalized === '') return vector;
  const chars = [...` ${normalized} `];
  for (let i = 0; i + 3 <= chars.length; i++) {
    const gram = chars[i]! + chars[i + 1]! + chars[i + 2]!;
    vector.set(gram, (vector.get(gram) ?? 0) + 1);
  }
  return vector;
}

function norm(vector: TrigramVector): number {
  let sum = 0;
  for (const count of vector.values()) sum += count * count;
  return Math.sqrt(sum);
}

/** Cosine similarity in [0, 1] (0 when either text has no letter or digit). */
export function trigramCosine(a: TrigramVector, b: TrigramVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [gram, count] of small) dot += count * (large.get(gram) ?? 0);
  if (dot === 0) return 0;
  return Math.min(1, dot / (norm(a) * norm(b)));
}

/** The score of two texts, rounded to 4 decimals (what the API shows and `minScore` compares). */
export function textSimilarity(a: string, b: string): number {
  return roundScore(trigramCosine(trigramVector(a), trigramVector(b)));
}

export function roundScore(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
