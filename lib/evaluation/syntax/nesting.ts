/**
 * The deepest nesting of arrays/objects a parsed output may have. Deeper values are refused at the gate so that
 * later stages (recursive comparators, zod, canonical JSON) never meet a value that overflows their stack.
 */
export const MAX_NESTING = 1000;

/**
 * Does this valid JSON text nest deeper than MAX_NESTING? Text shorter than 2 * MAX_NESTING cannot, so the
 * common case costs one length comparison.
 */
export function jsonTextTooDeep(text: string): boolean {
  if (text.length <= 2 * MAX_NESTING) return false;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > MAX_NESTING) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}
