/**
 * BFCL's `standardize_string`: drop spaces and `,./-_*^`, lower-case, then `'` -> `"`. BFCL applies it only where
 * its checker calls it (string parameters, strings directly in a list, string values directly in a dict), never to
 * a "variable" value; the compatibility checker calls it in exactly those places.
 */
export function standardizeString(text: string): string {
  return text
    .replace(/[ ,./\-_*^]/g, '')
    .toLowerCase()
    .replace(/'/g, '"');
}
