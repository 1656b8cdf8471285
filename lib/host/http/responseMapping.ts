import type { HttpResponse } from '@azure/functions';
import { functionsLibrary } from '../functionsLibrary.js';
import { serializeCookie } from './cookies.js';

/** What the server writes: status, headers (a header may repeat, e.g. set-cookie) and the body bytes. */
export interface WireResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
  /** A streamed body (sent chunked as it is produced) instead of `body`. */
  stream?: AsyncIterable<unknown>;
}

/** A body given as a stream (ReadableStream, Node Readable, async iterable): sent as produced, not buffered. */
function streamedBody(result: object): AsyncIterable<unknown> | undefined {
  const body = (result as { body?: unknown }).body;
  if (body === null || typeof body !== 'object' || ArrayBuffer.isView(body) || body instanceof ArrayBuffer) return undefined;
  return Symbol.asyncIterator in body ? (body as AsyncIterable<unknown>) : undefined;
}

/** Thrown when a handler's result cannot become an HTTP response (the server answers 500). */
export class InvalidHttpResultError extends Error {
  override name = 'InvalidHttpResultError';
}

/**
 * Maps an HTTP handler's result the way @azure/functions' toRpcHttp does: an HttpResponse is used as is, any other
 * object is an HttpResponseInit (`status`, `body`, `jsonBody`, `headers`, `cookies`); undefined or null means an
 * empty 204 response (the function set no response); anything else is an error. An init whose `body` is a stream
 * (ReadableStream, Readable, async iterable: what Azure streams with `app.setup({ enableHttpStream: true })`) comes
 * back as `stream`, to be sent chunked as it is produced.
 */
export async function toWireResponse(result: unknown): Promise<WireResponse> {
  if (result === undefined || result === null) return { status: 204, headers: [], body: Buffer.alloc(0) };
  if (typeof result !== 'object') {
    throw new InvalidHttpResultError(
      `The HTTP response must be an object with optional properties "body", "status", "headers", "jsonBody" and "cookies", got ${typeof result}.`,
    );
  }
  const { HttpResponse: Response } = functionsLibrary();
  const stream = result instanceof Response ? undefined : streamedBody(result);
  let response: HttpResponse;
  try {
    response = result instanceof Response ? result : new Response(stream ? { ...result, body: undefined } : result);
  } catch (error) {
    throw new InvalidHttpResultError(`Invalid HTTP response: ${(error as Error).message}`);
  }
  const headers: Array<[string, string]> = [];
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers.push([name, value]);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  for (const cookie of response.cookies) headers.push(['set-cookie', serializeCookie(cookie)]);
  if (stream) return { status: response.status, headers, body: Buffer.alloc(0), stream };
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers, body };
}
