import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../domain/index.js';
import { HttpApiProvider, type HttpApiProviderOptions } from './httpApiProvider.js';
import { ExecutionConfigurationError } from '../../ports/executionErrors.js';
import { sendJson, startJsonApiServer, type Handler, type JsonApiServer } from './__fixtures__/jsonApiServer.js';
import { TEST_CATALOG } from '../../evaluation/execution/__fixtures__/catalog.js';
import { makeCase } from '../../evaluation/execution/__fixtures__/testCase.js';

const context = { testCase: makeCase(), expectedIndex: 0 };
const duration = expect.any(Number) as number;
let server: JsonApiServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerFor(handler: Handler, options: Partial<HttpApiProviderOptions> = {}): Promise<HttpApiProvider> {
  server = await startJsonApiServer(handler);
  return new HttpApiProvider({ baseUrl: `${server.baseUrl}/v1`, catalog: TEST_CATALOG, ...options });
}

const call = (tool_name: string, args: ToolCall['arguments']): ToolCall => ({ tool_name, arguments: args });

describe('HttpApiProvider', () => {
  it('maps a GET call to path and query, and returns the parsed JSON', async () => {
    const provider = await providerFor((_, res) => sendJson(res, 200, { temp: 21.5 }));
    const response = await provider.execute(call('get_weather', { city: 'New York', units: 'metric', days: [1, 2] }), context);
    expect(response).toEqual({ ok: true, status: 200, data: { temp: 21.5 }, durationMs: duration });
    expect(server?.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/v1/weather/New York',
        rawUrl: '/v1/weather/New%20York?days=1&days=2&units=metric',
        query: { days: ['1', '2'], units: ['metric'] },
        body: '',
      }),
    ]);
  });

  it('sends POST arguments as a JSON body with the configured headers', async () => {
    const provider = await providerFor((_, res) => sendJson(res, 201, { id: 'o-1' }), { headers: { 'x-api-key': 'k' } });
    const response = await provider.execute(call('create_order', { item: 'book', qty: 2 }), context);
    expect(response).toEqual({ ok: true, status: 201, data: { id: 'o-1' }, durationMs: duration });
    const seen = server?.requests[0];
    expect({ method: seen?.method, path: seen?.path, body: JSON.parse(seen?.body ?? '') as unknown }).toEqual({
      method: 'POST',
      path: '/v1/orders',
      body: { item: 'book', qty: 2 },
    });
    expect(seen?.headers).toMatchObject({ 'content-type': 'application/json', 'x-api-key': 'k', accept: 'application/json' });
  });

  it('returns null data for an empty 204 body', async () => {
    const provider = await providerFor((_, res) => res.writeHead(204).end());
    expect(await provider.execute(call('delete_item', { id: 7 }), context)).toEqual({
      ok: true,
      status: 204,
      data: null,
      durationMs: duration,
    });
  });

  it.each([
    [500, 'application/json', '{"error":"boom"}', 'returned HTTP 500: {"error":"boom"}'],
    [404, 'text/plain', 'no such city', 'returned HTTP 404: no such city'],
    [502, 'text/html', `<html>${'x'.repeat(300)}</html>`, `returned HTTP 502: <html>${'x'.repeat(194)}…`],
  ])('reports HTTP %i as execution_failed with the status and a body snippet', async (status, type, body, tail) => {
    const provider = await providerFor((_, res) => res.writeHead(status, { 'content-type': type }).end(body));
    const response = await provider.execute(call('get_weather', { city: 'Paris' }), context);
    expect(response).toEqual({
      ok: false,
      errorCode: 'execution_failed',
      status,
      message: `GET ${server?.baseUrl}/v1/weather/Paris ${tail}`,
      durationMs: duration,
    });
  });

  it('reports a 2xx body that is not JSON as execution_failed', async () => {
    const provider = await providerFor((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'));
    const response = await provider.execute(call('get_weather', { city: 'Paris' }), context);
    expect(response).toEqual({
      ok: false,
      errorCode: 'execution_failed',
      status: 200,
      message: `GET ${server?.baseUrl}/v1/weather/Paris returned a body that is not JSON (text/html): <p>hi</p>`,
      durationMs: duration,
    });
  });

  it.each([
    ['the provider timeout', { timeoutInMs: 150 }, {}, 150],
    ['the per-call timeout', {}, { timeoutInMs: 120 }, 120],
  ])('times out on a server that never answers (%s)', async (_, options, callOptions, ms) => {
    const provider = await providerFor(() => undefined, options);
    const response = await provider.execute(call('get_weather', { city: 'Paris' }), { ...context, ...callOptions });
    expect(response).toEqual({
      ok: false,
      errorCode: 'execution_failed',
      message: `GET ${server?.baseUrl}/v1/weather/Paris did not answer within ${ms} ms`,
      durationMs: duration,
    });
    expect(response.durationMs).toBeGreaterThanOrEqual(ms - 5);
    expect(response.durationMs).toBeLessThan(ms + 1000);
  });

  it("a tool's own timeout (http.timeout_ms, else timeout_ms) overrides the run's, both ways", async () => {
    const slowMs = 400;
    const handler: Handler = (_, res) => void setTimeout(() => sendJson(res, 200, { temp: 20 }), slowMs);
    const withTimeouts = (tool: { timeout_ms?: number; http_timeout_ms?: number }) => ({
      ...TEST_CATALOG,
      tools: TEST_CATALOG.tools.map((t) =>
        t.name === 'get_weather'
          ? {
              ...t,
              ...(tool.timeout_ms ? { timeout_ms: tool.timeout_ms } : {}),
              http: { ...t.http!, ...(tool.http_timeout_ms ? { timeout_ms: tool.http_timeout_ms } : {}) },
            }
          : t,
      ),
    });
    // the run allows 10 s, the tool 100 ms: it times out, and says whose timeout it was
    let provider = await providerFor(handler, { timeoutInMs: 10_000, catalog: withTimeouts({ timeout_ms: 100 }) });
    const late = await provider.execute(call('get_weather', { city: 'Paris' }), context);
    expect(late).toMatchObject({
      ok: false,
      message: `GET ${server?.baseUrl}/v1/weather/Paris did not answer within 100 ms (the timeout of tool get_weather)`,
    });
    expect(late.durationMs).toBeLessThan(slowMs);
    await server?.close();
    // the run allows 100 ms (also per call), the tool's HTTP mapping 5 s (winning over its timeout_ms of 50 ms): it answers
    provider = await providerFor(handler, { timeoutInMs: 100, catalog: withTimeouts({ timeout_ms: 50, http_timeout_ms: 5_000 }) });
    const answered = await provider.execute(call('get_weather', { city: 'Paris' }), { ...context, timeoutInMs: 100 });
    expect(answered).toMatchObject({ ok: true, data: { temp: 20 } });
    // a tool without its own timeout keeps the run's
    expect(await provider.execute(call('ping', {}), context)).toMatchObject({
      ok: false,
      message: `PUT ${server?.baseUrl}/v1/ping did not answer within 100 ms`,
    });
  });

  it('rethrows the abort reason when the caller aborts mid-request', async () => {
    const provider = await providerFor(() => undefined);
    const controller = new AbortController();
    const pending = provider.execute(call('get_weather', { city: 'Paris' }), { ...context, abortSignal: controller.signal });
    setTimeout(() => controller.abort(new Error('run cancelled')), 50);
    await expect(pending).rejects.toThrow('run cancelled');
  });

  it('leaves no listener on a long-lived caller signal after calls succeed or fail', async () => {
    const provider = await providerFor((req, res) => (req.path.endsWith('Oslo') ? sendJson(res, 500, {}) : sendJson(res, 200, {})));
    const run = new AbortController();
    for (const city of ['Paris', 'Oslo', 'Rome'])
      await provider.execute(call('get_weather', { city }), { ...context, abortSignal: run.signal });
    expect(getEventListeners(run.signal, 'abort')).toEqual([]);
  });

  it('does not call the API when the signal is already aborted', async () => {
    const provider = await providerFor((_, res) => sendJson(res, 200, {}));
    await expect(
      provider.execute(call('get_weather', { city: 'Paris' }), { ...context, abortSignal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(server?.requests).toEqual([]);
  });

  it('reports a refused connection as execution_failed naming the cause', async () => {
    const provider = await providerFor(() => undefined);
    await server?.close();
    const response = await provider.execute(call('get_weather', { city: 'Paris' }), context);
    expect(response).toMatchObject({
      ok: false,
      errorCode: 'execution_failed',
      message: expect.stringContaining('failed: fetch failed (ECONNREFUSED') as string,
    });
    expect('status' in response).toBe(false);
  });

  it('returns execution_failed for a tool not in the catalog and for a call missing a path argument', async () => {
    const provider = await providerFor((_, res) => sendJson(res, 200, {}));
    expect(await provider.execute(call('nope', {}), context)).toEqual({
      ok: false,
      errorCode: 'execution_failed',
      message: 'tool "nope" is not in catalog test-api@1, so it has no HTTP mapping',
      durationMs: duration,
    });
    expect(await provider.execute(call('get_weather', {}), context)).toMatchObject({
      ok: false,
      errorCode: 'execution_failed',
      message: expect.stringContaining('needs argument "city"') as string,
    });
    expect(server?.requests).toEqual([]);
  });

  it('throws a configuration error for a catalog tool without an http mapping', async () => {
    const provider = await providerFor((_, res) => sendJson(res, 200, {}));
    await expect(provider.execute(call('no_http', {}), context)).rejects.toThrow(ExecutionConfigurationError);
    await expect(provider.execute(call('no_http', {}), context)).rejects.toThrow('tool "no_http" has no "http" mapping');
  });

  it.each([
    ['a relative base URL', { baseUrl: '/api' }, 'base URL "/api" is not an absolute URL'],
    ['a non-positive timeout', { baseUrl: 'http://x', timeoutInMs: 0 }, 'timeoutInMs must be positive, got 0'],
  ])('rejects %s at construction', (_, options, message) => {
    expect(() => new HttpApiProvider({ catalog: TEST_CATALOG, ...options })).toThrow(message);
  });
});
