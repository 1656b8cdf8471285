import type { IncomingMessage } from 'node:http';
import type { HttpRequest } from '@azure/functions';
import { functionsLibrary } from '../functionsLibrary.js';

/** Flattens Node's incoming headers (arrays joined with ", ", as a Fetch Headers object would). */
export function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Builds the @azure/functions HttpRequest a handler receives: absolute URL (scheme, host, /api path and query;
 * repeated query keys kept), flattened headers, route values as `params`, and the raw body bytes (dropped for
 * GET/HEAD by the library).
 */
export function toFunctionsRequest(
  incoming: IncomingMessage,
  origin: string,
  params: Record<string, string>,
  body: Buffer,
): HttpRequest {
  const { HttpRequest: Request } = functionsLibrary();
  return new Request({
    method: incoming.method ?? 'GET',
    url: new URL(incoming.url ?? '/', origin).toString(),
    headers: flattenHeaders(incoming.headers),
    params,
    body: { bytes: body },
  });
}
