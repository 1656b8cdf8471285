/**
 * Numbers mentioned in text, normalised so that `1,234.50`, `1234.5` and `$1,234.5` are the same value.
 * A mention keeps every value it may stand for: `12%` is 12 or 0.12, `1.2 million` / `1.2M` is 1.2 or 1,200,000
 * (the suffix may be a unit, as in `5m`), so two mentions match when any of their values agree. Number words from
 * two to twenty count too ("three orders").
 */
export interface NumberMention {
  /** the text as written, e.g. `$1,234.50` or `12%` */
  text: string;
  /** the values it may stand for; the first is the plain number */
  values: number[];
}

/** Relative tolerance for "the same number": 0.01%, as in stage 3. */
export const NUMBER_RELATIVE_TOLERANCE = 1e-4;

const MULTIPLIERS: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  trillion: 1e12,
};

// sign, currency, digits (with thousands separators or decimals), then a percent sign or a scale word/suffix.
// ASCII classes on purpose (no `u` flag): three times faster, and a non-ASCII letter glued to a digit is rare.
const NUMBER =
  /(?<![A-Za-z0-9_])([-\u2212]\s?)?(?:[$\u20ac\u00a3\u00a5]\s?)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:\s?(%|percent(?![A-Za-z])|per cent(?![A-Za-z]))|(k|mn|bn|m|b)(?![A-Za-z0-9])|\s(thousand|million|billion|trillion)(?![A-Za-z]))?/gi;

const HAS_DIGIT = /\d/;

/** Small numbers written as words ("three orders"). `zero`/`one` are left out: "one of", "none" are not counts. */
const NUMBER_WORDS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
};
const NUMBER_WORD = new RegExp(`(?<![A-Za-z])(?:${Object.keys(NUMBER_WORDS).join('|')})(?![A-Za-z])`, 'gi');

export function extractNumbers(text: string): NumberMention[] {
  const mentions: NumberMention[] = [];
  NUMBER.lastIndex = 0;
  for (let match = HAS_DIGIT.test(text) ? NUMBER.exec(text) : null; match !== null; match = NUMBER.exec(text)) {
    const [whole, sign, digits, percent, suffix, word] = match;
    if (digits === undefined) continue;
    const value = (sign ? -1 : 1) * Number(digits.replaceAll(',', ''));
    if (!Number.isFinite(value)) continue;
    const values = [value];
    if (percent) values.push(value / 100);
    const scale = suffix ?? word;
    if (scale) values.push(value * (MULTIPLIERS[scale.toLowerCase()] ?? 1));
    mentions.push({ text: whole.trim(), values });
  }
  NUMBER_WORD.lastIndex = 0;
  for (let match = NUMBER_WORD.exec(text); match !== null; match = NUMBER_WORD.exec(text)) {
    mentions.push({ text: match[0], values: [NUMBER_WORDS[match[0].toLowerCase()]!] });
  }
  return mentions;
}

export function sameNumber(a: number, b: number, relativeTolerance: number = NUMBER_RELATIVE_TOLERANCE): boolean {
  if (a === b) return true;
  return Math.abs(a - b) <= relativeTolerance * Math.max(Math.abs(a), Math.abs(b));
}

export function mentionsMatch(a: NumberMention, b: NumberMention): boolean {
  return a.values.some((x) => b.values.some((y) => sameNumber(x, y)));
}

/** Distinct mentions by plain value (the first occurrence's text is kept). */
export function distinctNumbers(mentions: NumberMention[]): NumberMention[] {
  const out: NumberMention[] = [];
  for (const mention of mentions) {
    if (!out.some((kept) => sameNumber(kept.values[0]!, mention.values[0]!))) out.push(mention);
  }
  return out;
}

/** Which reference numbers appear (within tolerance) among the answer's numbers. */
export function findNumbers(reference: NumberMention[], answer: NumberMention[]): { found: NumberMention[]; missing: NumberMention[] } {
  const found: NumberMention[] = [];
  const missing: NumberMention[] = [];
  for (const mention of reference) (answer.some((a) => mentionsMatch(mention, a)) ? found : missing).push(mention);
  return { found, missing };
}
