/**
 * Patch formats are `+json` but not documents of the resource: a route reading them must say so
 * (`RouteDefinition.jsonMediaTypes`), otherwise they get 415 rather than being read as a whole resource.
 */
const PATCH_TYPES = new Set(['application/json-patch+json', 'application/merge-patch+json']);

/** The media type of a Content-Type header: lower case, without parameters (`application/json; charset=utf-8` -> `application/json`). */
export function mediaTypeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Whether a JSON body of this media type is read: `application/json` and structured-syntax `+json` types
 * (`application/problem+json`, `application/vnd.x+json`), not look-alikes such as `application/jsonx` or
 * `text/json-ish`, and patch formats only where the route declares them in `extra`.
 */
export function isJsonMediaType(mediaType: string, extra: readonly string[] = []): boolean {
  if (extra.includes(mediaType)) return true;
  if (mediaType === 'application/json') return true;
  if (PATCH_TYPES.has(mediaType)) return false;
  return /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(mediaType);
}
