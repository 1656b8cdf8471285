import type { ArgMatcher } from '../../domain/expected.js';

/**
 * Same rule as the domain's isMatcherObject (a non-empty object whose keys all start with `$`), without allocating:
 * the comparator calls it for every object in an expected value, and a plain object is recognised at its first key.
 */
export function isMatcher(value: object): value is ArgMatcher {
  if (Array.isArray(value)) return false;
  let any = false;
  for (const key in value) {
    if (key.charCodeAt(0) !== 36 /* $ */) return false;
    any = true;
  }
  return any;
}
