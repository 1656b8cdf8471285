/**
 * Full text for the Cosmos DB fallback of `q` (when AI Search is not configured): the words of a case's question,
 * expected answer and tags, folded (lowercase, no diacritics) and joined by single spaces with a space at each end,
 * so `CONTAINS(c.search, ' word ')` matches a whole word and `CONTAINS(c.search, ' wor')` a prefix. The same
 * semantics as the embedded FTS5 query (lib/adapters/embedded/ftsQuery.ts): whitespace-separated terms are ANDed,
 * each term is a phrase of its words (`get_weather` is "get weather"), the last term is a prefix from 3 characters,
 * and operators, quotes and parentheses are plain text. CONTAINS reads the index of every case: a scan.
 */

const WORD = /[\p{L}\p{N}]+/gu;
const MIN_PREFIX_LENGTH = 3;

/** The folded words of a text: NFD, combining marks removed, lowercase. */
export function foldedWords(text: string): string[] {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().match(WORD) ?? [];
}

/** The searchable text of a case: ` word word ... ` (empty texts give ' '). */
export function searchTextOf(parts: readonly (string | undefined)[]): string {
  const words = parts.flatMap((part) => (part ? foldedWords(part) : []));
  return ` ${words.join(' ')} `;
}

/**
 * The CONTAINS needles of a query text, ANDed: one per whitespace-separated term that has a letter or digit.
 * Undefined when there is none (nothing can match).
 */
export function searchNeedles(q: string): string[] | undefined {
  const terms = q.split(/\s+/u).filter((term) => /[\p{L}\p{N}]/u.test(term));
  if (terms.length === 0) return undefined;
  return terms.map((term, i) => {
    const phrase = foldedWords(term).join(' ');
    const prefix = i === terms.length - 1 && [...term].length >= MIN_PREFIX_LENGTH;
    return prefix ? ` ${phrase}` : ` ${phrase} `;
  });
}
