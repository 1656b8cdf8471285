import { afterEach, describe, expect, it } from 'vitest';
import { EnvSecretResolver } from '../../adapters/shared/envSecretResolver.js';
import { TargetConfigurationError } from '../errors.js';
import { ResilientTarget } from '../../resilience/resilientTarget.js';
import { testCase } from '../testing/testCases.test-helpers.js';
import { startScriptedServer, type Responder, type ScriptedServer } from '../testing/scriptedServer.test-helpers.js';
import { HttpTarget, type HttpSettings } from './httpTarget.js';

const secrets = new EnvSecretResolver({ AGENT_TOKEN: 'Bearer agent-secret' });
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function settings(overrides: Partial<HttpSettings> = {}): HttpSettings {
  return {
    kind: 'http',
    url: `${server!.origin}/agent`,
    method: 'POST',
    headers: {},
    request_template: '{"question": {{question}}}',
    response: { answer_path: '$.answer' },
    ...overrides,
  };
}

async function targetWith(responder: Responder, overrides: Partial<HttpSettings> = {}) {
  server = await startScriptedServer(responder);
  return new HttpTarget(settings(overrides), { secrets, targetId: 'router' });
}

const QUESTION = 'Orders for "ACME"\nsince 2024 \\ all regions?';

describe('HttpTarget against a local server', () => {
  it('posts the template with the question as a JSON string, secret headers resolved, and extracts by JSONPath', async () => {
    const target = await targetWith(
      () => ({
        body: {
          result: { text: 'ACME has 2 orders.', calls: [{ tool_name: 'orders.search', parameters: { customer: 'ACME' } }] },
          routing: { agent: 'orders-agent', reason: 'order question' },
        },
      }),
      {
        headers: { Authorization: { env: 'AGENT_TOKEN' }, 'X-Client': 'evalp' },
        request_template: '{"id": {{test_case_id}}, "input": {"text": "{{question}}"}, "stream": false}',
        response: {
          answer_path: '$.result.text',
          tool_calls_path: '$.result.calls',
          agent_path: '$.routing.agent',
          reason_path: '$.routing.reason',
        },
      },
    );
    const result = await target.invoke(testCase('tc-"1"', QUESTION));
    expect(result).toEqual({
      ok: true,
      output: {
        role: 'assistant',
        content: 'ACME has 2 orders.',
        tool_calls: [{ type: 'function', function: { name: 'orders.search', arguments: { customer: 'ACME' } } }],
      },
      agent: 'orders-agent',
      routing_reason: 'order question',
      latency_ms: expect.any(Number),
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      client_version: null,
      api_calls_made: 0,
      attempts: 1,
    });
    const request = server!.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/agent');
    expect(request.body).toEqual({ id: 'tc-"1"', input: { text: QUESTION }, stream: false });
    expect(request.headers).toMatchObject({
      authorization: 'Bearer agent-secret',
      'x-client': 'evalp',
      'content-type': 'application/json',
      accept: 'application/json',
    });
  });

  it('GET sends no body and substitutes percent-encoded values into the URL', async () => {
    server = await startScriptedServer(() => ({ body: { answer: 'ok' } }));
    const target = new HttpTarget(settings({ method: 'GET', url: `${server.origin}/ask?q={{question}}&case={{test_case_id}}` }), {
      secrets,
    });
    expect(await target.invoke(testCase('a/b', 'x & y?'))).toMatchObject({ ok: true, output: { role: 'assistant', content: 'ok' } });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/ask?q=x%20%26%20y%3F&case=a%2Fb', text: '' });
  });

  it.each<[string, Responder, (agentUrl: string) => object]>([
    [
      'HTTP 404 (not retryable)',
      () => ({ status: 404, body: { error: 'no such agent' } }),
      (u) => ({ http_status: 404, retryable: false, message: `target router: POST ${u} answered HTTP 404: {"error":"no such agent"}` }),
    ],
    [
      'HTTP 503 with Retry-After',
      () => ({ status: 503, headers: { 'retry-after': '2' }, body: 'busy' }),
      (u) => ({ http_status: 503, retryable: true, retry_after_ms: 2000, message: `target router: POST ${u} answered HTTP 503: busy` }),
    ],
    [
      'a body that is not JSON',
      () => ({ headers: { 'content-type': 'text/html' }, body: '<html>oops</html>' }),
      (u) => ({
        http_status: 200,
        retryable: false,
        message: `target router: POST ${u} answered HTTP 200 with a body that is not JSON (text/html): <html>oops</html>`,
      }),
    ],
    [
      'an empty body',
      () => ({ body: '' }),
      (u) => ({
        retryable: false,
        message: `target router: POST ${u} answered HTTP 200 with a body that is not JSON (application/json): (empty body)`,
      }),
    ],
  ])('%s is a target_error', async (_label, responder, expected) => {
    const target = await targetWith(responder);
    const result = await target.invoke(testCase('tc'));
    expect(result).toMatchObject({ ok: false, error_code: 'target_error', attempts: 1, ...expected(`${server!.origin}/agent`) });
  });

  it('a refused connection is a retryable target_error naming ECONNREFUSED', async () => {
    server = await startScriptedServer(() => ({}));
    const url = `${server.origin}/agent`;
    await server.close();
    server = undefined;
    const target = new HttpTarget({ ...settings2(url) }, { secrets });
    expect(await target.invoke(testCase('tc'))).toMatchObject({
      ok: false,
      error_code: 'target_error',
      retryable: true,
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('a slow endpoint times out through ResilientTarget', async () => {
    const target = await targetWith(() => ({ body: { answer: 'late' }, delayMs: 5_000 }));
    const result = await new ResilientTarget(target, { timeoutInMs: 50, maxRetries: 0 }).invoke(testCase('tc'));
    expect(result).toMatchObject({ ok: false, error_code: 'target_timeout', message: 'target router did not answer within 50 ms' });
  });

  it("rethrows the caller's abort reason", async () => {
    const target = await targetWith(() => ({ body: { answer: 'late' }, delayMs: 5_000 }));
    const caller = new AbortController();
    const reason = new Error('cancelled');
    setTimeout(() => caller.abort(reason), 20);
    await expect(target.invoke(testCase('tc'), { abortSignal: caller.signal })).rejects.toBe(reason);
  });
});

function settings2(url: string): HttpSettings {
  return {
    kind: 'http',
    url,
    method: 'POST',
    headers: {},
    request_template: '{"question": {{question}}}',
    response: { answer_path: '$.answer' },
  };
}

describe('HttpTarget configuration errors (thrown, naming the setting)', () => {
  it.each<[string, Partial<HttpSettings>, string, RegExp]>([
    ['an unknown placeholder', { request_template: '{"q": {{query}}}' }, 'settings.request_template', /uses \{\{query\}\}/],
    ['a template that is not JSON', { request_template: '{"q": {{question}}' }, 'settings.request_template', /does not render valid JSON/],
    ['an unknown placeholder in the URL', { url: 'http://127.0.0.1:1/{{agent}}' }, 'settings.url', /uses \{\{agent\}\}/],
  ])('%s', (_label, overrides, setting, message) => {
    const make = () => new HttpTarget({ ...settings2('http://127.0.0.1:1/agent'), ...overrides }, { secrets, targetId: 'router' });
    expect(make).toThrow(TargetConfigurationError);
    expect(make).toThrow(expect.objectContaining({ setting, message: expect.stringMatching(message) }));
  });

  it('a non-JSON template is accepted when the content-type says so', () => {
    expect(
      () =>
        new HttpTarget(
          { ...settings2('http://127.0.0.1:1/a'), headers: { 'Content-Type': 'text/plain' }, request_template: 'Q: {{question}}' },
          { secrets },
        ),
    ).not.toThrow();
  });

  it('an unresolvable header secret fails ready() and invoke() naming the header', async () => {
    const target = new HttpTarget(
      { ...settings2('http://127.0.0.1:1/a'), headers: { Authorization: { env: 'MISSING_TOKEN' } } },
      { secrets },
    );
    await expect(target.ready()).rejects.toMatchObject({
      setting: 'settings.headers.Authorization',
      message: expect.stringContaining('MISSING_TOKEN'),
    });
    await expect(target.invoke(testCase('tc'))).rejects.toBeInstanceOf(TargetConfigurationError);
  });
});
