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
 * Appends the connection's peer address to `x-forwarded-for`, as Azure's front end does: the LAST entry is the one
 * the host vouches for (earlier entries are whatever the client sent), which is what per-source limits key on.
 */
export function withForwardedFor(headers: Record<string, string>, remoteAddress: string | undefined): Record<string, string> {
  if (!remoteAddress) return headers;
  const given = headers['x-forwarded-for'];
  return { ...headers, 'x-forwarded-for': given ? `${given}, ${remoteAddress}` : remoteAddress };
}

/**
 * Builds the @azure/functions HttpRequest a handler receives: absolute URL (scheme, host, /api path and query;
 * repeated query keys kept), flattened headers, route values as `params`, and the raw body bytes (dropped for
 * GET/HEAD by the library).
 */
export function toFunctionsRequest(incoming: IncomingMessage, origin: string, params: Record<string, string>, body: Buffer): HttpRequest {
  const { HttpRequest: Request } = functionsLibrary();
  return new Request({
    method: incoming.method ?? 'GET',
    url: new URL(incoming.url ?? '/', origin).toString(),
    headers: withForwardedFor(flattenHeaders(incoming.headers), incoming.socket?.remoteAddress),
    params,
    body: { bytes: body },
  });
}
