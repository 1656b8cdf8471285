import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, createGuardedFetch, type ResolveAll } from './guardedFetch.js';
import { checkUrlStatically, OutboundRefusedError, refuseAddress, type OutboundPolicy } from './outboundPolicy.js';
import { outboundPolicyFromEnv } from './outboundSettings.js';

const embedded = outboundPolicyFromEnv({}, { backend: 'embedded', selfPorts: [7071] });
const azure = outboundPolicyFromEnv({}, { backend: 'azure' });

let server: Server;
let port: number;
const seen: Array<{ method: string; url: string; host: string; body: string; auth: string | undefined }> = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        host: req.headers.host ?? '',
        body: Buffer.concat(chunks).toString(),
        auth: req.headers.authorization,
      });
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/to-metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (url.pathname === '/to-self') return void res.writeHead(307, { location: 'http://127.0.0.1:7071/api/v1/runs' }).end();
      if (url.pathname === '/to-ok') return void res.writeHead(303, { location: '/ok' }).end();
      if (url.pathname === '/gzip')
        return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('{"zipped":true}'));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, path: url.pathname }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const refusal = async (promise: Promise<unknown>): Promise<OutboundRefusedError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRefusedError);
  return error as OutboundRefusedError;
};

describe('refuseAddress', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['0.0.0.0', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12::1', 'private'],
    ['169.254.10.10', 'link-local'],
    ['fe80::1', 'link-local'],
  ])('%s is refused as %s by default', (address, category) => {
    expect(refuseAddress(address, 80, address, embedded)?.category).toBe(category);
    expect(refuseAddress(address, 80, address, azure)?.category).toBe(category);
  });

  it("loopback: allowed on the embedded default, refused in Azure, never on the platform's own port", () => {
    expect(refuseAddress('127.0.0.1', 8080, 'localhost', embedded)).toBeUndefined();
    expect(refuseAddress('::1', 8080, '::1', embedded)).toBeUndefined();
    expect(refuseAddress('127.0.0.1', 8080, '127.0.0.1', azure)?.reason).toMatch(
      /loopback address \(allowed only when EVALP_OUTBOUND_ALLOW includes "loopback"\)/,
    );
    expect(refuseAddress('127.0.0.1', 7071, '127.0.0.1', embedded)?.reason).toMatch(/platform's own address and port/);
    expect(refuseAddress('127.0.0.2', 7071, '127.0.0.2', embedded)?.category).toBe('self');
  });

  it('admin settings open categories and hosts, never metadata; the deny list wins', () => {
    const open = outboundPolicyFromEnv(
      { EVALP_OUTBOUND_ALLOW: 'private,link-local,192.0.2.0/24', EVALP_OUTBOUND_DENY: '10.9.0.0/16,evil.example' },
      { backend: 'azure' },
    );
    expect(outboundPolicyFromEnv({ EVALP_OUTBOUND_ALLOW: 'none' }, { backend: 'embedded' }).allow_loopback).toBe(false);
    expect(outboundPolicyFromEnv({ EVALP_OUTBOUND_ALLOW: ' ' }, { backend: 'embedded' }).allow_loopback).toBe(true);
    expect(open.allow_loopback).toBe(false);
    expect(refuseAddress('10.1.2.3', 80, 'x', open)).toBeUndefined();
    expect(refuseAddress('169.254.10.10', 80, 'x', open)).toBeUndefined();
    expect(refuseAddress('169.254.169.254', 80, 'x', open)?.category).toBe('metadata');
    expect(refuseAddress('10.9.1.1', 80, 'x', open)?.category).toBe('denied-host');
    expect(() => checkUrlStatically('http://api.evil.example/', open)).toThrow(/deny list/);
    const allowHost: OutboundPolicy = { ...azure, allow_hosts: ['10.0.0.5'] };
    expect(refuseAddress('10.0.0.5', 80, 'x', allowHost)).toBeUndefined();
    expect(refuseAddress('10.0.0.6', 80, 'x', allowHost)?.category).toBe('private');
  });

  it('URLs: only http(s); metadata names and every IP notation the URL parser normalises', () => {
    expect(() => checkUrlStatically('file:///etc/passwd', embedded)).toThrow(/file: URLs are refused/);
    expect(() => checkUrlStatically('http://metadata.google.internal/computeMetadata/v1/', embedded)).toThrow(/metadata host/);
    expect(() => checkUrlStatically('http://[::ffff:169.254.169.254]/', embedded)).toThrow(/metadata/);
    expect(() => checkUrlStatically('http://2852039166/', embedded)).toThrow(/metadata/);
    expect(() => checkUrlStatically('http://0x7f.1:7071/', embedded)).toThrow(/platform's own/);
    expect(() => checkUrlStatically('http://localhost:7071/', embedded)).toThrow(/platform's own/);
    expect(() => checkUrlStatically('http://localhost:8080/', azure)).toThrow(/loopback/);
    expect(checkUrlStatically('https://api.example.com/v1', azure).port).toBe(443);
  });
});

describe('createGuardedFetch', () => {
  const names: Record<string, string[]> = {
    'agent.test': ['127.0.0.1'],
    'internal.test': ['10.0.0.7'],
    'mixed.test': ['93.184.216.34', '192.168.0.10'],
    'meta.test': ['169.254.169.254'],
  };
  const resolve: ResolveAll = async (host) => {
    const found = names[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const guarded = createGuardedFetch(embedded, { resolve });

  it('calls an allowed endpoint like fetch: method, headers, body, JSON answer, gzip', async () => {
    seen.length = 0;
    const res = await guarded(`http://127.0.0.1:${port}/echo?q=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: '{"a":1}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, path: '/echo' });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/echo?q=1', body: '{"a":1}', auth: 'Bearer t' });
    expect(await (await guarded(`http://127.0.0.1:${port}/gzip`)).json()).toEqual({ zipped: true });
  });

  it('connects to the address it checked (a name resolving to loopback reaches the local server, Host header kept)', async () => {
    seen.length = 0;
    const res = await guarded(`http://agent.test:${port}/named`);
    expect(await res.json()).toEqual({ ok: true, path: '/named' });
    expect(seen[0]?.host).toBe(`agent.test:${port}`);
  });

  it('refuses a DNS name resolving to a private address, or to any refused address among several, naming the reason', async () => {
    expect((await refusal(guarded(`http://internal.test:${port}/`))).reason).toBe(
      'internal.test (10.0.0.7) is a private-network address (allowed only when EVALP_OUTBOUND_ALLOW includes "private" or the host)',
    );
    expect((await refusal(guarded('http://mixed.test/'))).category).toBe('private');
    expect((await refusal(guarded('http://meta.test/latest/meta-data'))).category).toBe('metadata');
  });

  it('checks every redirect: to metadata and to the platform itself are refused, an allowed one is followed', async () => {
    seen.length = 0;
    const meta = await refusal(guarded(`http://127.0.0.1:${port}/to-metadata`));
    expect(meta.reason).toBe('169.254.169.254 is a cloud metadata address, which is never allowed');
    expect((await refusal(guarded(`http://127.0.0.1:${port}/to-self`, { method: 'POST', body: 'x' }))).category).toBe('self');
    const followed = await guarded(`http://127.0.0.1:${port}/to-ok`, { method: 'POST', body: 'x' });
    expect(await followed.json()).toEqual({ ok: true, path: '/ok' });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /to-metadata', 'POST /to-self', 'POST /to-ok', 'GET /ok']);
    const manual = await guarded(`http://127.0.0.1:${port}/to-metadata`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
  });

  it('fails like fetch for an unreachable or unknown host, and honours abort', async () => {
    await expect(guarded('http://127.0.0.1:1/')).rejects.toThrow(/fetch failed/);
    await expect(guarded('http://nowhere.test/')).rejects.toThrow(/fetch failed/);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(guarded(`http://127.0.0.1:${port}/`, { signal: controller.signal })).rejects.toThrow('stop');
  });

  it('checkOutboundUrl: the creation-time check resolves and checks every address; an unresolvable name passes (checked again per call)', async () => {
    await expect(checkOutboundUrl('http://internal.test/', embedded, resolve)).rejects.toThrow(/private-network/);
    await expect(checkOutboundUrl('http://agent.test:8080/', embedded, resolve)).resolves.toBeUndefined();
    await expect(checkOutboundUrl('http://nowhere.test/', embedded, resolve)).resolves.toBeUndefined();
    await expect(checkOutboundUrl('http://169.254.169.254/', embedded, resolve)).rejects.toThrow(/metadata/);
  });
});
