import { request as httpRequest } from 'node:http';
import { app, type HttpRequest } from '@azure/functions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRegistrations } from '../capture.js';
import { createInvoker } from '../invoke.js';
import type { FunctionRegistration } from '../registration.js';
import { HttpTriggerServer, type MountRequest } from './server.js';

const keys = { function: 'fn-key', admin: 'admin-key' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mounted: MountRequest[] = [];
let streamClosed = false;

async function* slowChunks(chunks: string[], gapMs: number): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    await pause(gapMs);
    yield new TextEncoder().encode(chunk);
  }
}
let registrations: FunctionRegistration[];
let server: HttpTriggerServer;
let base: string;

beforeAll(async () => {
  registrations = await captureRegistrations(async () => {
    app.http('srvItem', {
      route: 'items/{id:int}',
      methods: ['GET', 'PUT'],
      handler: (req: HttpRequest) => ({ jsonBody: { id: req.params.id, tags: req.query.getAll('tag'), method: req.method, url: req.url } }),
    });
    app.http('srvTrace', {
      route: 'trace',
      methods: ['GET'],
      handler: (_req, context) => ({ jsonBody: { traceParent: context.traceContext?.traceParent ?? null } }),
    });
    app.http('srvSecret', { route: 'secret', methods: ['GET'], authLevel: 'function', handler: () => ({ body: 'function ok' }) });
    app.http('srvAdmin', { route: 'admin-only', methods: ['GET'], authLevel: 'admin', handler: () => ({ body: 'admin ok' }) });
    app.http('srvUpload', {
      route: 'upload',
      methods: ['POST'],
      handler: async (req) => ({ jsonBody: { bytes: (await req.arrayBuffer()).byteLength } }),
    });
    app.http('srvSlow', { route: 'slow', methods: ['GET'], handler: async () => (await pause(600), { body: 'late' }) });
    app.http('srvThrow', {
      route: 'throw',
      methods: ['GET'],
      handler: () => {
        throw new Error('secret internal detail');
      },
    });
    app.http('srvBad', { route: 'bad', methods: ['GET'], handler: () => 42 as never });
    app.http('srvEmpty', { route: 'empty', methods: ['GET'], handler: () => undefined as never });
    app.http('srvStream', {
      route: 'stream',
      methods: ['GET'],
      // 5 chunks 100 ms apart: longer than the 300 ms request timeout, which ends when the headers are sent
      handler: () => ({ headers: { 'content-type': 'text/plain' }, body: slowChunks(['a', 'b', 'c', 'd', 'e'], 100) }),
    });
    app.http('srvStreamFail', {
      route: 'stream-fail',
      methods: ['GET'],
      handler: () => ({
        body: (async function* () {
          yield new TextEncoder().encode('partial');
          await pause(20);
          throw new Error('storage went away');
        })(),
      }),
    });
    app.http('srvStreamForever', {
      route: 'stream-forever',
      methods: ['GET'],
      handler: () => ({
        body: (async function* () {
          try {
            for (;;) {
              yield new Uint8Array(64 * 1024);
              await pause(5);
            }
          } finally {
            streamClosed = true;
          }
        })(),
      }),
    });
  });
  const stores = { send: () => ({ accepted: 0, duplicates: 0 }), upsert: () => undefined };
  server = new HttpTriggerServer(registrations, createInvoker({ queues: stores, containers: stores }), {
    port: 0,
    keys,
    maxRequestBodyBytes: 1024,
    requestTimeoutInMs: 300,
    mounts: [
      {
        prefix: '/runtime/webhooks/durabletask',
        handle: async (request) => {
          mounted.push(request);
          return { status: 202, headers: { location: 'x' }, body: { ok: true } };
        },
      },
    ],
  });
  base = await server.start();
});

afterAll(() => server.stop());

async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, type, body: type.includes('json') ? (JSON.parse(text) as unknown) : text, headers: res.headers };
}

describe('HttpTriggerServer', () => {
  it('serves route templates with params, repeated query keys and the absolute URL', async () => {
    const { status, body } = await call('/api/items/42?tag=a&tag=b');
    expect({ status, body }).toEqual({
      status: 200,
      body: { id: '42', tags: ['a', 'b'], method: 'GET', url: `${base}/api/items/42?tag=a&tag=b` },
    });
  });

  it.each([
    ['/api/items/abc', 'GET', 404, undefined],
    ['/api/nothing', 'GET', 404, undefined],
    ['/items/42', 'GET', 404, undefined],
    ['/api/items/42', 'DELETE', 405, 'GET, PUT'],
    ['/api/secret', 'POST', 405, 'GET'],
  ])('%s %s -> %i', async (path, method, expected, allow) => {
    const { status, type, body, headers } = await call(path, { method });
    expect({ status, type, allow: headers.get('allow') ?? undefined, title: (body as { title: string }).title }).toEqual({
      status: expected,
      type: 'application/problem+json',
      allow,
      title: expected === 404 ? 'Not Found' : 'Method Not Allowed',
    });
  });

  it.each([
    ['/api/secret', {}, 401],
    ['/api/secret', { 'x-functions-key': 'wrong' }, 401],
    ['/api/secret', { 'x-functions-key': 'fn-key' }, 200],
    ['/api/secret?code=fn-key', {}, 200],
    ['/api/secret', { 'x-functions-key': 'admin-key' }, 200],
    ['/api/admin-only', { 'x-functions-key': 'fn-key' }, 401],
    ['/api/admin-only?code=admin-key', {}, 200],
    ['/admin/host/status', {}, 401],
    ['/admin/host/status', { 'x-functions-key': 'admin-key' }, 200],
  ])('auth: %s with %j -> %i', async (path, headers, expected) => {
    expect((await call(path, { headers })).status).toBe(expected);
  });

  it('answers the host status', async () => {
    expect((await call('/admin/host/status?code=admin-key')).body).toEqual({ state: 'Running' });
  });

  it.each([
    ['at the limit', 1024, 200],
    ['over the limit (content-length)', 1025, 413],
  ])('body %s', async (_, size, expected) => {
    const { status } = await call('/api/upload', { method: 'POST', body: Buffer.alloc(size, 1) });
    expect(status).toBe(expected);
  });

  it('answers 413 for a chunked body that grows past the limit', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/api/upload`, { method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 3; i += 1) req.write(Buffer.alloc(600, 2));
      req.end();
    });
    expect(status).toBe(413);
  });

  it('answers a URL or headers over the limit with 431 problem+json (Node alone sends a bare status line)', async () => {
    const long = await call(`/api/items/42?q=${'x'.repeat(20_000)}`);
    expect({ status: long.status, type: long.type, title: (long.body as { title: string }).title }).toEqual({
      status: 431,
      type: 'application/problem+json',
      title: 'Request Header Fields Too Large',
    });
    const headers = await call('/api/items/42', { headers: { 'x-big': 'y'.repeat(20_000) } });
    expect([headers.status, headers.type]).toEqual([431, 'application/problem+json']);
    // the server keeps serving
    expect((await call('/api/items/42')).status).toBe(200);
  });

  it('answers a request that is not HTTP/1.1 with 400 problem+json', async () => {
    const { connect } = await import('node:net');
    const url = new URL(base);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain('Content-Type: application/problem+json');
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, title: 'Bad Request' });
  });

  it('answers 504 with a problem when the function outlives the request timeout', async () => {
    const started = Date.now();
    const { status, body } = await call('/api/slow');
    expect({ status, detail: (body as { detail: string }).detail }).toEqual({
      status: 504,
      detail: 'The request did not complete within 300 ms.',
    });
    expect(Date.now() - started).toBeLessThan(550);
  });

  it.each([
    ['/api/throw', /^Function "srvThrow" failed; see the host log for invocation [0-9a-f-]{36}\.$/],
    ['/api/bad', /must be an object/],
  ])('answers 500 without leaking internals for %s', async (path, detail) => {
    const { status, type, body } = await call(path);
    expect({ status, type }).toEqual({ status: 500, type: 'application/problem+json' });
    expect((body as { detail: string }).detail).toMatch(detail);
    expect(JSON.stringify(body)).not.toMatch(/secret internal detail|at .*\.ts/);
  });

  it('answers 204 when the function returns nothing', async () => {
    expect(await call('/api/empty')).toMatchObject({ status: 204, body: '' });
  });

  it('streams a body given as an async iterable: chunked, as produced, past the request timeout', async () => {
    const started = Date.now();
    const res = await fetch(`${base}/api/stream`);
    expect([res.status, res.headers.get('content-type'), res.headers.get('transfer-encoding'), res.headers.get('content-length')]).toEqual([
      200,
      'text/plain',
      'chunked',
      null,
    ]);
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    for await (const chunk of res.body!) chunks.push(decoder.decode(chunk));
    expect(chunks.join('')).toBe('abcde');
    expect(chunks.length).toBeGreaterThan(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it('cuts the connection when a stream fails after its headers (the client sees an incomplete body, not a complete one)', async () => {
    const res = await fetch(`${base}/api/stream-fail`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect((await call('/api/empty')).status).toBe(204);
  });

  it('stops reading a stream when the client goes away', async () => {
    const abort = new AbortController();
    const res = await fetch(`${base}/api/stream-forever`, { signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    for (let i = 0; i < 100 && !streamClosed; i++) await pause(10);
    expect(streamClosed).toBe(true);
  });

  it('dispatches mounted prefixes with the relative path, query and body', async () => {
    const { status, body, headers } = await call('/runtime/webhooks/durabletask/instances/i-1/raiseEvent/go?taskHub=h', {
      method: 'POST',
      body: '{"x":1}',
    });
    expect({ status, body, location: headers.get('location') }).toEqual({ status: 202, body: { ok: true }, location: 'x' });
    expect(mounted.map((m) => ({ ...m, query: m.query.toString() }))).toEqual([
      { method: 'POST', path: '/instances/i-1/raiseEvent/go', query: 'taskHub=h', body: '{"x":1}' },
    ]);
  });
});

describe('HttpTriggerServer.stop', () => {
  it('lets an in-flight request finish, then refuses connections', async () => {
    const own = new HttpTriggerServer(
      registrations,
      async (registration, input) => {
        await pause(150);
        return registration.callback(input, undefined as never);
      },
      { port: 0, keys },
    );
    const url = await own.start();
    const inFlight = fetch(`${url}/api/secret?code=fn-key`).then((r) => r.text());
    await pause(30);
    await own.stop({ timeoutInMs: 2000 });
    expect(await inFlight).toBe('function ok');
    await expect(fetch(`${url}/api/secret`)).rejects.toThrow();
  });

  it('while draining answers 503 to function requests but still serves mounted APIs', async () => {
    const own = new HttpTriggerServer(registrations, async (registration, input) => registration.callback(input, undefined as never), {
      port: 0,
      keys,
      mounts: [{ prefix: '/mounted', handle: async () => ({ status: 200, body: 'still here' }) }],
    });
    const url = await own.start();
    await own.drain();
    const [fn, mount] = await Promise.all([fetch(`${url}/api/secret?code=fn-key`), fetch(`${url}/mounted/x`)]);
    expect([fn.status, mount.status, await mount.text()]).toEqual([503, 200, 'still here']);
    await own.stop();
  });
});

describe('HttpTriggerServer trace context', () => {
  it("gives the invocation the request's traceparent header as its trace context, or a new trace", async () => {
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const traced = await fetch(`${base}/api/trace`, { headers: { traceparent: parent } });
    expect(await traced.json()).toEqual({ traceParent: parent });
    const untraced = (await (await fetch(`${base}/api/trace`)).json()) as { traceParent: string };
    expect(untraced.traceParent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(untraced.traceParent).not.toBe(parent);
  });
});
