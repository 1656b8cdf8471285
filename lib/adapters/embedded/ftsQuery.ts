/** Control characters separate terms (a NUL inside a quoted FTS5 string would end it early). */
const CONTROL_CHARACTERS = /\p{Cc}/gu;

/** A letter or a digit: a term without one tokenizes to nothing and is dropped. */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** The last term is prefix-matched only from this many characters: a shorter prefix expands to most of the vocabulary. */
export const MIN_PREFIX_LENGTH = 3;

/**
 * Turns a user's search text into a safe FTS5 query: every whitespace-separated term becomes a quoted phrase
 * (inner `"` doubled), so FTS5 syntax (`AND`, `OR`, `NOT`, `NEAR`, `*`, `^`, `:`, parentheses, quotes) is matched
 * as text and never parsed; the terms are ANDed; the last one, when it has MIN_PREFIX_LENGTH characters or more,
 * is prefix-matched (`"weath"*`), for search as you type. A term such as `get_weather` tokenizes into a phrase
 * (`get` followed by `weather`). Returns undefined when the text holds no letter or digit (nothing could match).
 */
export function toFtsQuery(text: string): string | undefined {
  const terms = text
    .replace(CONTROL_CHARACTERS, ' ')
    .split(/\s+/u)
    .filter((term) => WORD_CHARACTER.test(term));
  if (terms.length === 0) return undefined;
  const phrases = terms.map((term) => `"${term.replaceAll('"', '""')}"`);
  if ([...terms[terms.length - 1]!].length >= MIN_PREFIX_LENGTH) phrases[phrases.length - 1] += '*';
  return phrases.join(' ');
}
