/**
 * The similarity that groups near-duplicate candidates (pure): the Jaccard index of the two questions' word sets
 * after normalisation (Unicode NFKD, accents dropped, lower case, every run of characters that are not letters or
 * digits a word break). "Where is order 1234?" and "where's my order 1234" share {where, order, 1234} of
 * {where, is, order, 1234, s, my}: 0.5. Two candidates (or a candidate and a case) are near-duplicates when the
 * similarity is at least NEAR_DUPLICATE_SIMILARITY and they call the same set of tools.
 */

export const NEAR_DUPLICATE_SIMILARITY = 0.6;
/** neighbours below this are not listed at all */
export const LISTED_SIMILARITY = 0.3;

const MARKS = /\p{M}+/gu;
const NON_WORD = /[^\p{L}\p{N}]+/gu;

export function questionWords(text: string): Set<string> {
  const normalized = text.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(NON_WORD, ' ').trim();
  return new Set(normalized === '' ? [] : normalized.split(' '));
}

/** |A ∩ B| / |A ∪ B| of the word sets, rounded to 4 decimals; 0 when either has no word. */
export function questionSimilarity(a: string, b: string): number {
  const wa = questionWords(a);
  const wb = questionWords(b);
  if (wa.size === 0 || wb.size === 0) return 0;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return Math.round((shared / (wa.size + wb.size - shared)) * 10_000) / 10_000;
}

/** The sorted, unique tool names of a list of calls. */
export function toolSet(calls: ReadonlyArray<{ tool_name: string }>): string[] {
  return [...new Set(calls.map((c) => c.tool_name))].sort();
}

export function sameTools(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}
