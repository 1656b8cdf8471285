import { z } from 'zod';

export const MAX_ID_CHARACTERS = 128;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a value is not a usable id, or undefined when it is (the rule of IdSchema, for callers outside zod). */
export function idProblem(value: string): string | undefined {
  if (LONE_SURROGATE.test(value)) return 'an id must be valid Unicode (it has a lone surrogate)';
  const length = [...value].length;
  if (length < 1 || length > MAX_ID_CHARACTERS) return `an id is 1-${MAX_ID_CHARACTERS} characters (this one has ${length})`;
  if (/\p{Cc}/u.test(value)) return 'an id must not contain control characters';
  return undefined;
}

/**
 * The one rule for ids of test cases and API-managed entities (suites, targets, clients, ...): 1-128 characters
 * (code points), valid Unicode (no lone surrogates, which cannot be encoded in a URL or stored as UTF-8), no
 * control characters. Every id goes into URL paths percent-encoded and must stay fetchable, updatable and
 * deletable, so it is checked before anything is written.
 */
export const IdSchema = z
  .string()
  .min(1)
  .max(MAX_ID_CHARACTERS * 2, `an id is 1-${MAX_ID_CHARACTERS} characters`)
  .superRefine((value, ctx) => {
    // empty and far too long are reported by min/max above
    if (value.length === 0 || value.length > MAX_ID_CHARACTERS * 2) return;
    const problem = idProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
