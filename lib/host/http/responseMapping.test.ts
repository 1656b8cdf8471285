import { createRequire } from 'node:module';
import type * as AzureFunctions from '@azure/functions';
import { describe, expect, it } from 'vitest';
import { serializeCookie } from './cookies.js';
import { InvalidHttpResultError, toWireResponse } from './responseMapping.js';

const { HttpResponse } = createRequire(import.meta.url)('@azure/functions') as typeof AzureFunctions;

async function wire(result: unknown) {
  const response = await toWireResponse(result);
  return { status: response.status, headers: response.headers, body: response.body.toString('utf8') };
}

describe('toWireResponse', () => {
  it.each([
    ['undefined', undefined, { status: 204, headers: [], body: '' }],
    ['null', null, { status: 204, headers: [], body: '' }],
    ['empty init', {}, { status: 200, headers: [], body: '' }],
    ['jsonBody', { status: 201, jsonBody: { a: 1 } }, { status: 201, headers: [['content-type', 'application/json']], body: '{"a":1}' }],
    ['string body', { body: 'hi' }, { status: 200, headers: [['content-type', 'text/plain;charset=UTF-8']], body: 'hi' }],
    [
      'headers kept, content-type not overridden',
      { jsonBody: [1], headers: { 'Content-Type': 'application/vnd.x+json', 'x-a': 'b' } },
      {
        status: 200,
        headers: [
          ['content-type', 'application/vnd.x+json'],
          ['x-a', 'b'],
        ],
        body: '[1]',
      },
    ],
    ['204 drops the body', { status: 204, jsonBody: { a: 1 } }, { status: 204, headers: [], body: '' }],
    [
      'cookies',
      {
        status: 200,
        cookies: [
          { name: 'a', value: '1 2', httpOnly: true, path: '/' },
          { name: 'b', value: 'x', sameSite: 'Strict', maxAge: 60 },
        ],
      },
      {
        status: 200,
        headers: [
          ['set-cookie', 'a=1%202; Path=/; HttpOnly'],
          ['set-cookie', 'b=x; Max-Age=60; SameSite=Strict'],
        ],
        body: '',
      },
    ],
    ['bytes body', { body: new Uint8Array([104, 105]) }, { status: 200, headers: [], body: 'hi' }],
  ])('%s', async (_, result, expected) => {
    expect(await wire(result)).toEqual(expected);
  });

  it.each([
    [
      'an async generator',
      () =>
        (async function* () {
          yield new Uint8Array([1]);
        })(),
    ],
    ['a ReadableStream', () => new ReadableStream({ start: (c) => c.close() })],
  ])('keeps a body given as %s as a stream, with the status and headers', async (_label, make) => {
    const body = make();
    const response = await toWireResponse({ status: 200, headers: { 'content-type': 'text/csv' }, body });
    expect(response).toEqual({ status: 200, headers: [['content-type', 'text/csv']], body: Buffer.alloc(0), stream: body });
  });

  it('accepts an HttpResponse instance', async () => {
    expect(await wire(new HttpResponse({ status: 202, jsonBody: { ok: true }, headers: { 'x-r': '1' } }))).toEqual({
      status: 202,
      headers: [
        ['content-type', 'application/json'],
        ['x-r', '1'],
      ],
      body: '{"ok":true}',
    });
  });

  it.each([
    ['a string', 'hello', /must be an object/],
    ['a number', 42, /must be an object/],
    ['an invalid status', { status: 99 }, /Invalid HTTP response/],
  ])('rejects %s', async (_, result, message) => {
    await expect(toWireResponse(result)).rejects.toThrow(InvalidHttpResultError);
    await expect(toWireResponse(result)).rejects.toThrow(message);
  });
});

describe('serializeCookie', () => {
  it.each([
    [{ name: 'n', value: 'v' }, 'n=v'],
    [{ name: 'n', value: 'v', domain: 'x.org', secure: true, sameSite: 'None' as const }, 'n=v; Domain=x.org; Secure; SameSite=None'],
    [{ name: 'n', value: 'v', expires: Date.UTC(2030, 0, 1) }, 'n=v; Expires=Tue, 01 Jan 2030 00:00:00 GMT'],
    [{ name: 'n', value: 'v', expires: new Date(Date.UTC(2030, 0, 1)) }, 'n=v; Expires=Tue, 01 Jan 2030 00:00:00 GMT'],
  ])('%j', (cookie, expected) => {
    expect(serializeCookie(cookie)).toBe(expected);
  });

  it('rejects a name with separators', () => {
    expect(() => serializeCookie({ name: 'a;b', value: '' })).toThrow(/Invalid cookie name/);
  });
});
