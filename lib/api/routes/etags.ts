/**
 * Whether an `If-Match` header allows a write to an entity whose ETag is `current` (RFC 9110 §13.1.1): no header
 * or `*` allows it (the entity exists: the caller read it), otherwise one of the listed tags must equal it.
 * Weak tags (`W/"..."`) compare by their opaque part, since our ETags are strong.
 */
export function etagMatches(ifMatch: string | null | undefined, current: string): boolean {
  if (ifMatch === null || ifMatch === undefined || ifMatch.trim() === '' || ifMatch.trim() === '*') return true;
  const wanted = opaque(current);
  return ifMatch.split(',').some((tag) => opaque(tag) === wanted);
}

/** The opaque part of an entity tag: `W/"abc"`, `"abc"` and `abc` are all `abc`. */
function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
}
