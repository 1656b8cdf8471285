/**
 * Word tokens for ROUGE-L and fact matching: case-insensitive, punctuation dropped, numbers normalised
 * (`1,234.50` and `1234.5` are the same token `1234.5`).
 */

// digits with inner separators first (so 1,234.50 is one token), then words with inner apostrophes
const TOKEN = /\p{N}+(?:[.,]\p{N}+)*|[\p{L}\p{N}]+(?:['\u2019]\p{L}+)*/gu;
const ENGLISH_NUMBER = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;

export function tokenize(text: string): string[] {
  const tokens = text.toLowerCase().replaceAll('\u2019', "'").match(TOKEN);
  if (!tokens) return [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const first = token.charCodeAt(0);
    if (first >= 48 && first <= 57 && ENGLISH_NUMBER.test(token)) tokens[i] = String(Number(token.replaceAll(',', '')));
  }
  return tokens;
}

export function isNumberToken(token: string): boolean {
  return ENGLISH_NUMBER.test(token);
}

/**
 * Words that carry no fact on their own. Negations (`not`, `no`, `never`) are deliberately absent: they change
 * a fact's meaning. Scale words are here because numbers are matched separately, with their scale.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if of to in on at for by with from into onto over under about as than then so ' +
    'is are was were be been being am do does did has have had having will would shall should can could might must ' +
    "it its it's this that these those there here their they them he she his her him we our us you your i me my " +
    'which what who whom whose when where why how all any each both some such also very just only ' +
    'percent thousand million billion trillion k m b bn mn'
  ).split(' '),
);

/** The tokens of a text that carry content (stopwords and numbers removed; numbers are matched on their own). */
export function contentWords(tokens: readonly string[]): string[] {
  return tokens.filter((t) => !STOPWORDS.has(t) && !isNumberToken(t));
}
