import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postWebhook } from './postWebhook.js';
import { startWebhookServer } from './webhookServer.test-helpers.js';

let hanging: Server | undefined;
afterEach(async () => {
  hanging?.closeAllConnections();
  await new Promise<void>((resolve) => (hanging ? hanging.close(() => resolve()) : resolve()));
  hanging = undefined;
});

describe('postWebhook', () => {
  it.each<[string, { status: number; headers?: Record<string, string>; body?: string }, object]>([
    ['200', { status: 200, body: 'ok' }, { ok: true, status: 200, retryable: false }],
    ['204', { status: 204 }, { ok: true, status: 204, retryable: false }],
    ['500 with a body', { status: 500, body: 'boom' }, { ok: false, status: 500, retryable: true, error: 'HTTP 500: boom' }],
    [
      '429 with Retry-After in seconds',
      { status: 429, headers: { 'retry-after': '7' } },
      { ok: false, status: 429, retryable: true, retryAfterInMs: 7000, error: 'HTTP 429' },
    ],
    [
      '503 with retry-after-ms',
      { status: 503, headers: { 'retry-after-ms': '250' } },
      { ok: false, status: 503, retryable: true, retryAfterInMs: 250, error: 'HTTP 503' },
    ],
    ['408', { status: 408 }, { ok: false, status: 408, retryable: true, error: 'HTTP 408' }],
    [
      'a redirect (not followed, not retried)',
      { status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } },
      { ok: false, status: 302, retryable: false, error: 'HTTP 302' },
    ],
    [
      '400 (not retryable), its body cut to 200 characters',
      { status: 400, body: 'x'.repeat(500) },
      { ok: false, status: 400, retryable: false, error: `HTTP 400: ${'x'.repeat(200)}` },
    ],
  ])('classifies %s', async (_label, answer, expected) => {
    const server = await startWebhookServer([answer]);
    expect(await postWebhook(server.url, { text: 'hi' })).toEqual(expected);
    expect(server.received).toEqual([{ text: 'hi' }]);
    await server.close();
  });

  it('gives up on a server that does not answer within timeoutInMs (retryable)', async () => {
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`;
    const started = Date.now();
    expect(await postWebhook(url, {}, { timeoutInMs: 150 })).toEqual({ ok: false, status: null, retryable: true, error: 'timed out' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
