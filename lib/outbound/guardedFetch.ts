import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { checkUrlStatically, OutboundRefusedError, refuseAddress, type OutboundPolicy, type UrlTarget } from './outboundPolicy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address (default: the system resolver, as fetch uses it). */
export type ResolveAll = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolveAll: ResolveAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface GuardedFetchOptions {
  resolve?: ResolveAll;
  /** redirects followed (each one checked again) before failing; default 10 */
  maxRedirects?: number;
}

/** Every address of the URL's host, each checked; throws OutboundRefusedError naming the first refused one. */
async function checkedAddresses(target: UrlTarget, policy: OutboundPolicy, resolve: ResolveAll): Promise<ResolvedAddress[]> {
  const addresses = await resolve(target.host);
  if (addresses.length === 0) throw new OutboundRefusedError('reserved', `${target.host} resolves to no address`);
  for (const { address } of addresses) {
    const refusal = refuseAddress(address, target.port, target.host, policy);
    if (refusal) throw refusal;
  }
  return addresses;
}

/**
 * The check made where a URL is configured (target systems, clients' webhooks, `/api/evaluate`): the static
 * checks, then, for a host name, every address it resolves to now. A name that does not resolve here is not
 * refused (it may resolve where the calls are made; every call checks again). Throws OutboundRefusedError.
 */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy, resolve: ResolveAll = systemResolveAll): Promise<void> {
  const target = checkUrlStatically(raw, policy);
  if (target.host === 'localhost' || target.host.endsWith('.localhost') || /^[\d.]+$|:/.test(target.host)) return;
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(target.host);
  } catch {
    return;
  }
  for (const { address } of addresses) {
    const refusal = refuseAddress(address, target.port, target.host, policy);
    if (refusal) throw refusal;
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);

interface Outgoing {
  method: string;
  headers: Headers;
  body: Buffer | undefined;
}

async function outgoingOf(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<{ url: string; request: Outgoing; redirect: NonNullable<RequestInit['redirect']>; signal: AbortSignal | undefined }> {
  const base = input instanceof Request ? input : undefined;
  const method = (init?.method ?? base?.method ?? 'GET').toUpperCase();
  const headers = new Headers(init?.headers ?? base?.headers);
  let body: Buffer | undefined;
  const source = init?.body !== undefined ? init.body : base?.body;
  if (source !== undefined && source !== null) {
    // any BodyInit (string, bytes, URLSearchParams, FormData, Blob, stream) serialised as fetch would send it
    const serialised = new Request('http://body.invalid/', { method: 'POST', body: source, duplex: 'half' } as RequestInit);
    body = Buffer.from(await serialised.arrayBuffer());
    const type = serialised.headers.get('content-type');
    if (type && !headers.has('content-type')) headers.set('content-type', type);
  }
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return {
    url,
    request: { method, headers, body },
    redirect: init?.redirect ?? base?.redirect ?? 'follow',
    signal: init?.signal ?? base?.signal ?? undefined,
  };
}

function send(target: UrlTarget, request: Outgoing, signal: AbortSignal | undefined, lookup: LookupFunction): Promise<IncomingMessage> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  if (request.body) headers['content-length'] = String(request.body.length);
  const options: RequestOptions = {
    protocol: target.url.protocol,
    hostname: target.host,
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    method: request.method,
    headers,
    lookup,
    ...(signal ? { signal } : {}),
  };
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = (target.url.protocol === 'https:' ? httpsRequest : httpRequest)(options, resolve);
    req.on('error', (error: Error) =>
      reject(
        signal?.aborted ? signal.reason : error instanceof OutboundRefusedError ? error : new TypeError('fetch failed', { cause: error }),
      ),
    );
    req.end(request.body);
  });
}

function decoded(response: IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').toLowerCase().trim();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

function toResponse(message: IncomingMessage): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < message.rawHeaders.length; i += 2)
    headers.append(message.rawHeaders[i] as string, message.rawHeaders[i + 1] as string);
  const status = message.statusCode ?? 502;
  if (NULL_BODY.has(status)) {
    message.resume();
    return new Response(null, { status, statusText: message.statusMessage ?? '', headers });
  }
  headers.delete('content-encoding');
  headers.delete('content-length');
  const body = Readable.toWeb(decoded(message)) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, { status, statusText: message.statusMessage ?? '', headers });
}

/**
 * A `fetch` that only talks to destinations `policy` allows: the URL is checked before anything is sent, the host
 * name is resolved and EVERY address checked, and the socket connects to a checked address (the check runs inside
 * the connection's lookup, so a second DNS answer cannot slip in); each redirect is checked the same way before it is
 * followed (`redirect: 'manual'` returns the 3xx as fetch does). A refusal rejects with OutboundRefusedError, whose
 * message names the reason; other network failures reject like fetch ("fetch failed" with the cause).
 */
export function createGuardedFetch(policy: OutboundPolicy, options: GuardedFetchOptions = {}): typeof globalThis.fetch {
  const resolve = options.resolve ?? systemResolveAll;
  const maxRedirects = options.maxRedirects ?? 10;
  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const { url, request, redirect, signal } = await outgoingOf(input, init);
    signal?.throwIfAborted();
    let current = new URL(url);
    let outgoing = request;
    for (let hop = 0; ; hop += 1) {
      const target = checkUrlStatically(current, policy);
      const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
        const all = (lookupOptions as { all?: boolean }).all === true;
        const family = (lookupOptions as { family?: number | string }).family;
        checkedAddresses({ ...target, host: hostname.toLowerCase() }, policy, resolve).then(
          (found) => {
            const wanted = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
            const usable = wanted.length > 0 ? wanted : found;
            if (all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, usable);
            else callback(null, usable[0]!.address, usable[0]!.family);
          },
          (error: NodeJS.ErrnoException) => callback(error, '', 0),
        );
      };
      const message = await send(target, outgoing, signal, lookup);
      const status = message.statusCode ?? 0;
      const location = message.headers.location;
      if (!REDIRECTS.has(status) || location === undefined || redirect === 'manual') return toResponse(message);
      message.resume();
      if (redirect === 'error') throw new TypeError('fetch failed', { cause: new Error(`redirected (${status}) with redirect: "error"`) });
      if (hop >= maxRedirects) throw new TypeError('fetch failed', { cause: new Error(`more than ${maxRedirects} redirects`) });
      const next = new URL(location, current);
      const headers = new Headers(outgoing.headers);
      if (next.origin !== current.origin) for (const name of ['authorization', 'cookie', 'proxy-authorization']) headers.delete(name);
      const toGet = status === 303 || ((status === 301 || status === 302) && outgoing.method === 'POST');
      if (toGet)
        for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'])
          headers.delete(name);
      outgoing = {
        method: toGet && outgoing.method !== 'HEAD' ? 'GET' : outgoing.method,
        headers,
        body: toGet ? undefined : outgoing.body,
      };
      current = next;
    }
  };
  return guarded as typeof globalThis.fetch;
}
