import type { CoercionKind, StringNormalization } from '../../domain/index.js';

/** Trim and collapse every run of whitespace to one space. */
export function collapseWhitespace(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** BFCL's `standardize_string`: remove spaces and `,./-_*^`, lower-case, and turn `'` into `"`. */
export function bfclNormalize(text: string): string {
  return text
    .replace(/[ ,./\-_*^]/g, '')
    .toLowerCase()
    .replace(/'/g, '"');
}

/** Which normalisation makes two unequal strings equal, and whether the policy's mode allows it. */
export interface StringEquivalence {
  allowed: boolean;
  coercions: CoercionKind[];
}

/**
 * Compare two strings that are not identical under the normalisation `mode`. Returns the coercions that make them
 * equal (allowed), or the weakest normalisation that would have made them equal but the mode does not include
 * (refused), or undefined when no normalisation makes them equal.
 *
 * Modes: `whitespace` ⊂ `case_whitespace`; `bfcl` is BFCL's own rule (it removes spaces but keeps tabs and newlines).
 */
export function stringEquivalence(expected: string, actual: string, mode: StringNormalization): StringEquivalence | undefined {
  if (mode === 'bfcl' && bfclNormalize(expected) === bfclNormalize(actual)) return { allowed: true, coercions: ['string_bfcl'] };
  const collapsedExpected = collapseWhitespace(expected);
  const collapsedActual = collapseWhitespace(actual);
  if (collapsedExpected === collapsedActual) {
    return { allowed: mode === 'whitespace' || mode === 'case_whitespace', coercions: ['string_whitespace'] };
  }
  if (collapsedExpected.toLowerCase() === collapsedActual.toLowerCase()) {
    const onlyCase = expected.toLowerCase() === actual.toLowerCase();
    return { allowed: mode === 'case_whitespace', coercions: onlyCase ? ['string_case'] : ['string_whitespace', 'string_case'] };
  }
  if (mode !== 'bfcl' && bfclNormalize(expected) === bfclNormalize(actual)) return { allowed: false, coercions: ['string_bfcl'] };
  return undefined;
}
