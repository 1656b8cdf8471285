import { OpenAI } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { TestCaseSchema, ToolCatalogSchema, type TestCase } from '../../domain/index.js';
import { ExpectedDataProvider } from '../../evaluation/execution/index.js';
import { EnvSecretResolver } from '../../adapters/shared/envSecretResolver.js';
import { TargetConfigurationError } from '../errors.js';
import { ResilientTarget } from '../../resilience/resilientTarget.js';
import type { TargetInvocation } from '../../ports/target.js';
import { testCase } from '../testing/testCases.test-helpers.js';
import {
  apiError,
  completion,
  startScriptedServer,
  toolCallMessage,
  type Responder,
  type ScriptedServer,
} from '../testing/scriptedServer.test-helpers.js';
import type { OpenAISettings } from './openaiSettings.js';
import { OpenAITarget, type OpenAITargetOptions } from './openaiTarget.js';

const CATALOG = ToolCatalogSchema.parse({
  name: 'shop',
  tool_schema_version: '1',
  tools: [
    { name: 'orders.search', description: 'Search orders', parameters: { type: 'object', properties: { customer: { type: 'string' } } } },
    { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  ],
});

const secrets = new EnvSecretResolver({ SHOP_KEY: 'sk-test-123' });

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function settings(overrides: Partial<OpenAISettings> = {}): OpenAISettings {
  return { kind: 'openai', azure: false, model: 'gpt-4o', base_url: server!.baseURL, api_key: { env: 'SHOP_KEY' }, ...overrides };
}

async function targetWith(responder: Responder, overrides: Partial<OpenAISettings> = {}, options: Partial<OpenAITargetOptions> = {}) {
  server = await startScriptedServer(responder);
  return new OpenAITarget(settings(overrides), { secrets, catalog: CATALOG, targetId: 'shop-gpt', ...options });
}

function resilient(target: OpenAITarget, timeoutInMs = 5_000, maxRetries = 3) {
  return new ResilientTarget(target, { timeoutInMs, maxRetries, retryDelayInMs: 1, maxRetryDelayInMs: 5 });
}

const body = (i: number) =>
  server!.requests[i]!.body as {
    messages: { role: string; content: unknown; tool_calls?: unknown; tool_call_id?: string }[];
    [k: string]: unknown;
  };

describe('OpenAITarget against a local chat-completions server (real openai client)', () => {
  it('sends system prompt, question, tools (mapped names) and temperature; returns the message with catalog names', async () => {
    const target = await targetWith(
      () => completion(toolCallMessage([['orders_search', { customer: 'ACME' }]]), { promptTokens: 1000, completionTokens: 50 }),
      {
        system_prompt: 'You are a shop assistant.',
        temperature: 0,
        pricing: { input_per_mtok: 2.5, output_per_mtok: 10 },
      },
    );
    const result = await target.invoke(testCase('tc-1', 'Open orders of "ACME"?'));
    expect(result).toEqual({
      ok: true,
      output: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'orders.search', arguments: '{"customer":"ACME"}' } }],
      },
      latency_ms: expect.any(Number),
      input_tokens: 1000,
      output_tokens: 50,
      cost_usd: (1000 * 2.5 + 50 * 10) / 1_000_000,
      client_version: 'gpt-4o-2024-08-06',
      api_calls_made: 0,
      attempts: 1,
    });
    expect(server!.requests).toHaveLength(1);
    const request = server!.requests[0]!;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test-123');
    expect(request.body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are a shop assistant.' },
        { role: 'user', content: 'Open orders of "ACME"?' },
      ],
      tools: [
        { type: 'function', function: { name: 'orders_search', description: 'Search orders', parameters: CATALOG.tools[0]!.parameters } },
        { type: 'function', function: { name: 'get_weather', parameters: CATALOG.tools[1]!.parameters } },
      ],
      temperature: 0,
    });
  });

  it('agentic loop: executes the tool call through the ApiProvider, sends the result back, returns all calls and the final answer', async () => {
    const responder: Responder = (_req, i) =>
      i === 0
        ? completion(
            toolCallMessage([
              ['orders_search', { customer: 'ACME' }],
              ['get_weather', { city: 'Paris' }],
            ]),
            { promptTokens: 100, completionTokens: 30 },
          )
        : completion(
            { role: 'assistant', content: 'ACME has 2 open orders; it is sunny in Paris.' },
            { promptTokens: 180, completionTokens: 15 },
          );
    const target = await targetWith(
      responder,
      { agentic_loop: { enabled: true, max_turns: 5 } },
      { apiProvider: new ExpectedDataProvider() },
    );
    const tc: TestCase = TestCaseSchema.parse({
      id: 'tc-agentic',
      nl_query: 'How many open orders does ACME have, and the weather in Paris?',
      expected_tool_calls: [
        { tool_name: 'get_weather', arguments: { city: 'Paris' } },
        { tool_name: 'orders.search', arguments: { customer: 'ACME' } },
      ],
      expected_raw_data: [{ sky: 'sunny' }, { open: 2 }],
    });
    const result = await target.invoke(tc);
    expect(result).toEqual({
      ok: true,
      output: {
        role: 'assistant',
        content: 'ACME has 2 open orders; it is sunny in Paris.',
        refusal: null,
        tool_calls: [
          { id: 'call_0', type: 'function', function: { name: 'orders.search', arguments: '{"customer":"ACME"}' } },
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      latency_ms: expect.any(Number),
      input_tokens: 280,
      output_tokens: 45,
      cost_usd: 0,
      client_version: 'gpt-4o-2024-08-06',
      api_calls_made: 2,
      attempts: 1,
      trajectory: {
        turns: 2,
        stop: 'answered',
        steps: [
          {
            kind: 'model',
            turn: 1,
            text: null,
            calls: 2,
            input_tokens: 100,
            output_tokens: 30,
            latency_ms: expect.any(Number),
            model: 'gpt-4o-2024-08-06',
          },
          {
            kind: 'tool_call',
            turn: 1,
            call_id: 'call_0',
            tool_name: 'orders.search',
            arguments: { customer: 'ACME' },
            raw_arguments: '{"customer":"ACME"}',
            executed: true,
            ok: true,
            result: { open: 2 },
            status: 200,
            latency_ms: expect.any(Number),
          },
          {
            kind: 'tool_call',
            turn: 1,
            call_id: 'call_1',
            tool_name: 'get_weather',
            arguments: { city: 'Paris' },
            raw_arguments: '{"city":"Paris"}',
            executed: true,
            ok: true,
            result: { sky: 'sunny' },
            status: 200,
            latency_ms: expect.any(Number),
          },
          {
            kind: 'model',
            turn: 2,
            text: 'ACME has 2 open orders; it is sunny in Paris.',
            calls: 0,
            input_tokens: 180,
            output_tokens: 15,
            latency_ms: expect.any(Number),
            model: 'gpt-4o-2024-08-06',
          },
        ],
      },
    });
    expect(server!.requests).toHaveLength(2);
    expect(body(1).messages).toEqual([
      { role: 'user', content: tc.nl_query },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_0', type: 'function', function: { name: 'orders_search', arguments: '{"customer":"ACME"}' } },
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0', content: '{"open":2}' },
      { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"sunny"}' },
    ]);
  });

  it("agentic loop: stops after max_turns requests; the last turn's calls are reported, not executed; bad arguments are refused", async () => {
    const responder: Responder = (_req, i) =>
      i === 0
        ? completion({
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'bad', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }],
          })
        : completion(toolCallMessage([['get_weather', { city: `C${i}` }]], `t${i}`));
    const target = await targetWith(
      responder,
      { agentic_loop: { enabled: true, max_turns: 3 } },
      { apiProvider: new ExpectedDataProvider() },
    );
    const result = await target.invoke(testCase('tc-loop'));
    expect(server!.requests).toHaveLength(3);
    expect(result.ok && result.api_calls_made).toBe(1); // turn 2's call; turn 1's was refused, turn 3's only reported
    expect(result.ok && (result.output as { tool_calls: { id: string }[] }).tool_calls.map((c) => c.id)).toEqual(['bad', 't1_0', 't2_0']);
    expect(body(1).messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'bad',
      content: '{"error":"the arguments of get_weather are not a JSON object"}',
    });
    expect(body(2).messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 't1_0',
      content: JSON.stringify({ error: 'no expected data to serve for get_weather: it is not matched to an expected call' }),
    });
    // the trajectory keeps all three turns: the refused call (malformed arguments, not executed), the executed call
    // answered with an error, and the last turn's call recorded but not executed at the cap
    const trajectory = result.ok ? result.trajectory : undefined;
    expect(trajectory?.stop).toBe('turn_cap');
    expect(trajectory?.turns).toBe(3);
    const calls = trajectory?.steps.filter((s) => s.kind === 'tool_call') ?? [];
    expect(calls.map((c) => [c.call_id, c.executed, c.ok, c.arguments, c.error])).toEqual([
      ['bad', false, false, null, 'the arguments of get_weather are not a JSON object'],
      ['t1_0', true, false, { city: 'C1' }, 'no expected data to serve for get_weather: it is not matched to an expected call'],
      ['t2_0', false, false, { city: 'C2' }, 'not executed: the turn cap was reached'],
    ]);
    expect(calls[0]).toMatchObject({ raw_arguments: '{"city":' });
  });

  it('agentic loop: 429 on the second turn, then success: the retry restarts the conversation and the trajectory is the successful one', async () => {
    let secondTurns = 0;
    const responder: Responder = (req) => {
      const messages = (req.body as { messages: unknown[] }).messages;
      if (messages.length === 1) return completion(toolCallMessage([['get_weather', { city: 'Paris' }]]));
      secondTurns++;
      if (secondTurns === 1) return apiError(429, 'slow down', { 'retry-after-ms': '1' });
      return completion({ role: 'assistant', content: 'Sunny.' });
    };
    const inner = await targetWith(
      responder,
      { agentic_loop: { enabled: true, max_turns: 4 } },
      { apiProvider: new ExpectedDataProvider() },
    );
    const tc = TestCaseSchema.parse({
      id: 'tc-429',
      nl_query: 'Weather in Paris?',
      expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }],
      expected_raw_data: [{ sky: 'sunny' }],
    });
    const result = await resilient(inner).invoke(tc);
    expect(server!.requests).toHaveLength(4); // turn 1, 429, then the whole conversation again
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.attempts).toBe(2);
    expect(result.api_calls_made).toBe(1);
    expect(result.trajectory?.stop).toBe('answered');
    expect(result.trajectory?.steps.map((s) => s.kind)).toEqual(['model', 'tool_call', 'model']);
    expect(result.trajectory?.steps.at(-1)).toMatchObject({ kind: 'model', text: 'Sunny.' });
  });

  it("agentic loop: a tool API that is down fails the invocation as a retryable target_error, not as the model's answer", async () => {
    const down = {
      kind: 'http' as const,
      execute: async () => ({
        ok: false as const,
        errorCode: 'execution_failed' as const,
        message: 'GET http://127.0.0.1:1/weather: ECONNREFUSED',
        durationMs: 1,
      }),
    };
    const responder: Responder = () => completion(toolCallMessage([['get_weather', { city: 'Paris' }]]));
    const target = await targetWith(responder, { agentic_loop: { enabled: true, max_turns: 4 } }, { apiProvider: down });
    const result = await target.invoke(testCase('tc-down'));
    expect(result).toMatchObject({ ok: false, error_code: 'target_error', retryable: true });
    expect(!result.ok && result.message).toContain('tool get_weather could not be executed (GET http://127.0.0.1:1/weather: ECONNREFUSED)');
    expect(server!.requests).toHaveLength(1);
  });

  it('agentic loop: a tool that rejects the call (HTTP 400) is sent back to the model, which can correct itself', async () => {
    let calls = 0;
    const picky = {
      kind: 'http' as const,
      execute: async (call: { arguments: Record<string, unknown> }) =>
        ++calls === 1
          ? { ok: false as const, errorCode: 'execution_failed' as const, status: 400, message: 'city must be a city name', durationMs: 1 }
          : { ok: true as const, status: 200, data: { sky: 'sunny', city: call.arguments.city as string }, durationMs: 1 },
    };
    const responder: Responder = (_req, i) =>
      i === 0
        ? completion(toolCallMessage([['get_weather', { city: '75' }]], 'a'))
        : i === 1
          ? completion(toolCallMessage([['get_weather', { city: 'Paris' }]], 'b'))
          : completion({ role: 'assistant', content: 'Sunny in Paris.' });
    const target = await targetWith(responder, { agentic_loop: { enabled: true, max_turns: 5 } }, { apiProvider: picky });
    const result = await target.invoke(testCase('tc-picky'));
    expect(result.ok).toBe(true);
    expect(body(1).messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'a_0',
      content: '{"error":"city must be a city name","status":400}',
    });
    const steps = result.ok ? (result.trajectory?.steps ?? []) : [];
    expect(steps.filter((s) => s.kind === 'tool_call').map((s) => [s.ok, s.status])).toEqual([
      [false, 400],
      [true, 200],
    ]);
    expect(result.ok && (result.output as { tool_calls: unknown[] }).tool_calls).toHaveLength(2);
  });

  it('500 then success: ResilientTarget retries once and reports 2 attempts', async () => {
    const target = await targetWith((_req, i) =>
      i === 0 ? apiError(500, 'upstream exploded') : completion({ role: 'assistant', content: 'fine' }),
    );
    const result = await resilient(target).invoke(testCase('tc-500'));
    expect(result).toMatchObject({ ok: true, output: { role: 'assistant', content: 'fine' }, attempts: 2 });
    expect(server!.requests).toHaveLength(2); // the client's own retries are off
  });

  it('a slow server is target_timeout within the timeout', async () => {
    const target = await targetWith(() => ({ ...completion({ role: 'assistant', content: 'late' }), delayMs: 5_000 }));
    const started = performance.now();
    const result = await resilient(target, 100, 0).invoke(testCase('tc-slow'));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result).toEqual({
      ok: false,
      error_code: 'target_timeout',
      message: 'target shop-gpt did not answer within 100 ms',
      latency_ms: expect.any(Number),
      attempts: 1,
      retryable: true,
    });
  });

  it.each<[string, Responder, Partial<TargetInvocation>]>([
    [
      '400 (not retried)',
      () => apiError(400, 'bad tools'),
      { http_status: 400, retryable: false, message: 'model "gpt-4o" answered HTTP 400: bad tools' },
    ],
    [
      '401 with a hint',
      () => apiError(401, 'invalid key'),
      { http_status: 401, message: 'model "gpt-4o" answered HTTP 401: invalid key (check settings.api_key)' },
    ],
    [
      '429 with retry-after-ms',
      () => apiError(429, 'slow down', { 'retry-after-ms': '1500' }),
      { http_status: 429, retryable: true, retry_after_ms: 1500 },
    ],
    [
      'a text body',
      () => ({ headers: { 'content-type': 'text/plain' }, body: 'I am not an API' }),
      { message: 'the endpoint did not answer with a chat completion (text: "I am not an API")', retryable: false },
    ],
    [
      'invalid JSON',
      () => ({ body: '{"choices": [' }),
      { retryable: false, message: expect.stringMatching(/^the chat-completions endpoint answered with invalid JSON/) },
    ],
  ])('%s is a target_error, never a throw', async (_label, responder, expected) => {
    const target = await targetWith(responder);
    const result = await target.invoke(testCase('tc-err'));
    expect(result).toMatchObject({ ok: false, error_code: 'target_error', attempts: 1, ...expected });
  });

  it('a completion without choices is still ok (garbage is for stage 1 to judge)', async () => {
    const target = await targetWith(() => ({ body: { id: 'x', model: 'weird', choices: [] } }));
    expect(await target.invoke(testCase('tc-garbage'))).toMatchObject({
      ok: true,
      output: { id: 'x', model: 'weird', choices: [] },
      client_version: 'weird',
    });
  });

  it('a refused connection is a retryable target_error naming the cause', async () => {
    server = await startScriptedServer(() => ({}));
    const baseURL = server.baseURL;
    await server.close();
    const target = new OpenAITarget({ kind: 'openai', azure: false, model: 'm', base_url: baseURL }, { secrets });
    server = await startScriptedServer(() => ({})); // for afterEach
    const result = await target.invoke(testCase('tc-refused'));
    expect(result).toMatchObject({
      ok: false,
      error_code: 'target_error',
      retryable: true,
      message: expect.stringMatching(/^connection to the chat-completions endpoint failed: .*ECONNREFUSED/),
    });
  });

  it('Azure OpenAI: deployment in the path, api-version query, api-key header', async () => {
    server = await startScriptedServer(() => completion({ role: 'assistant', content: 'hi' }));
    const target = new OpenAITarget(
      {
        kind: 'openai',
        azure: true,
        model: 'my-deploy',
        base_url: `${server.origin}/`,
        api_version: '2024-10-21',
        api_key: { env: 'SHOP_KEY' },
      },
      { secrets },
    );
    expect(await target.invoke(testCase('tc-azure'))).toMatchObject({ ok: true, output: { content: 'hi' } });
    const request = server.requests[0]!;
    expect(request.url).toBe('/openai/deployments/my-deploy/chat/completions?api-version=2024-10-21');
    expect(request.headers['api-key']).toBe('sk-test-123');
    expect(request.headers.authorization).toBeUndefined();
  });

  it("rethrows the caller's abort reason (cancellation is not a target failure)", async () => {
    const target = await targetWith(() => ({ ...completion({ role: 'assistant', content: 'x' }), delayMs: 5_000 }));
    const caller = new AbortController();
    const reason = new Error('run cancelled');
    setTimeout(() => caller.abort(reason), 30);
    await expect(resilient(target).invoke(testCase('tc-cancel'), { abortSignal: caller.signal })).rejects.toBe(reason);
  });

  it('uses a client it is given', async () => {
    server = await startScriptedServer(() => completion({ role: 'assistant', content: 'given' }));
    const client = new OpenAI({ apiKey: 'other', baseURL: server.baseURL });
    const target = new OpenAITarget({ kind: 'openai', azure: false, model: 'm' }, { secrets, client });
    expect(await target.invoke(testCase('tc-client'))).toMatchObject({ ok: true, output: { content: 'given' } });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer other');
  });
});

describe('OpenAITarget configuration errors (thrown, naming the setting)', () => {
  it.each<[string, Partial<OpenAISettings>, Partial<OpenAITargetOptions>, string]>([
    ['azure without base_url', { azure: true, base_url: undefined, api_version: 'v' }, {}, 'settings.base_url'],
    ['azure without api_version', { azure: true, base_url: 'https://x.openai.azure.com' }, {}, 'settings.api_version'],
    [
      'azure without api_key',
      { azure: true, base_url: 'https://x.openai.azure.com', api_version: 'v', api_key: undefined },
      {},
      'settings.api_key',
    ],
    ['the OpenAI API without api_key', { base_url: undefined, api_key: undefined }, {}, 'settings.api_key'],
    [
      'an agentic loop without an ApiProvider',
      { base_url: 'http://127.0.0.1:1/v1', agentic_loop: { enabled: true, max_turns: 3 } },
      {},
      'settings.agentic_loop',
    ],
  ])('%s', (_label, overrides, options, setting) => {
    const make = () =>
      new OpenAITarget({ kind: 'openai', azure: false, model: 'm', api_key: { env: 'SHOP_KEY' }, ...overrides }, { secrets, ...options });
    expect(make).toThrow(TargetConfigurationError);
    expect(() => make()).toThrow(expect.objectContaining({ setting }));
  });

  it('an unresolvable api_key fails ready() and invoke(), and is retried once fixed', async () => {
    server = await startScriptedServer(() => completion({ role: 'assistant', content: 'ok' }));
    const env: Record<string, string> = {};
    const target = new OpenAITarget(
      { kind: 'openai', azure: false, model: 'm', base_url: server.baseURL, api_key: { env: 'LATE_KEY' } },
      { secrets: new EnvSecretResolver(env) },
    );
    await expect(target.ready()).rejects.toMatchObject({
      name: 'TargetConfigurationError',
      setting: 'settings.api_key',
      message: expect.stringContaining('environment variable LATE_KEY is not set'),
    });
    await expect(target.invoke(testCase('x'))).rejects.toBeInstanceOf(TargetConfigurationError);
    env.LATE_KEY = 'now-set';
    expect(await target.invoke(testCase('x'))).toMatchObject({ ok: true });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer now-set');
  });
});
