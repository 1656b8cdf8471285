import { afterEach, describe, expect, it } from 'vitest';
import { TestCaseSchema, ToolCatalogSchema, type AnthropicTargetSettings, type TestCase } from '../../domain/index.js';
import { ExpectedDataProvider } from '../../evaluation/execution/index.js';
import { parseToolCalls } from '../../evaluation/syntax/index.js';
import { EnvSecretResolver } from '../../adapters/shared/envSecretResolver.js';
import { TargetConfigurationError } from '../errors.js';
import { ResilientTarget } from '../../resilience/resilientTarget.js';
import { startScriptedServer, type RecordedRequest, type Responder, type ScriptedServer } from '../testing/scriptedServer.test-helpers.js';
import { anthropicError, message, text, toolUse } from './anthropicMessages.test-helpers.js';
import { AnthropicTarget } from './anthropicTarget.js';

const CATALOG = ToolCatalogSchema.parse({
  name: 'shop',
  tool_schema_version: '1',
  tools: [
    {
      name: 'orders.get',
      description: 'One order',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    },
    { name: 'get_customer', parameters: { type: 'object', properties: { customer_id: { type: 'string' } } } },
  ],
});

const CASE: TestCase = TestCaseSchema.parse({
  id: 'c1',
  nl_query: 'Who placed order ORD-1?',
  expected_tool_calls: [
    { tool_name: 'orders.get', arguments: { order_id: 'ORD-1' } },
    { tool_name: 'get_customer', arguments: { customer_id: 'CUS-7' } },
  ],
  expected_raw_data: [
    { order_id: 'ORD-1', customer_id: 'CUS-7' },
    { customer_id: 'CUS-7', name: 'Ada' },
  ],
  expected_nl_response: 'Ada placed it.',
});

const secrets = new EnvSecretResolver({ CLAUDE_KEY: 'sk-ant-test' });
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function target(responder: Responder, overrides: Partial<AnthropicTargetSettings> = {}, loop = true): Promise<AnthropicTarget> {
  server = await startScriptedServer(responder);
  const settings: AnthropicTargetSettings = {
    kind: 'anthropic',
    base_url: server.origin,
    model: 'claude-test',
    api_key: { env: 'CLAUDE_KEY' },
    api_key_header: 'x-api-key',
    max_tokens: 512,
    prompt_caching: false,
    ...(loop ? { agentic_loop: { enabled: true, max_turns: 4 } } : {}),
    ...overrides,
  };
  const invoker = new AnthropicTarget(settings, { secrets, catalog: CATALOG, apiProvider: new ExpectedDataProvider(), targetId: 'claude' });
  await invoker.ready();
  return invoker;
}

/** the tool_result blocks of the last user turn of a request */
function toolResults(request: RecordedRequest): Array<Record<string, unknown>> {
  const messages = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const last = messages[messages.length - 1]!;
  return Array.isArray(last.content) ? (last.content as Array<Record<string, unknown>>) : [];
}

describe('AnthropicTarget (the real @anthropic-ai/sdk client against a scripted Messages server)', () => {
  it('runs the tool_use/tool_result loop to completion: results sent back, every step kept, tokens and cost summed', async () => {
    const responder: Responder = (request, index) => {
      if (index === 0)
        return message([text('Looking it up.'), toolUse('toolu_1', 'orders_get', { order_id: 'ORD-1' })], { input: 200, output: 30 });
      if (index === 1) {
        const [result] = toolResults(request);
        const order = JSON.parse(String(result!.content)) as { customer_id: string };
        return message([toolUse('toolu_2', 'get_customer', { customer_id: order.customer_id })], { input: 300, output: 25 });
      }
      return message([text('Ada placed it.')], { input: 400, output: 10 });
    };
    const invoker = await target(responder, {
      system_prompt: 'You are a shop assistant.',
      temperature: 0.2,
      pricing: { input_per_mtok: 3, output_per_mtok: 15 },
    });
    const result = await invoker.invoke(CASE);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const first = server!.requests[0]!;
    expect(first.url).toBe('/v1/messages');
    expect(first.headers['x-api-key']).toBe('sk-ant-test');
    expect(first.headers.authorization).toBeUndefined();
    const body = first.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'claude-test', max_tokens: 512, system: 'You are a shop assistant.', temperature: 0.2 });
    expect((body.tools as Array<{ name: string; input_schema: unknown }>).map((t) => t.name)).toEqual(['orders_get', 'get_customer']);
    // the second request carries the assistant turn and the tool result; the model used a value from that result
    expect(toolResults(server!.requests[1]!)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: JSON.stringify({ order_id: 'ORD-1', customer_id: 'CUS-7' }) },
    ]);
    expect(server!.requests).toHaveLength(3);
    expect(result.api_calls_made).toBe(2);
    expect(result.input_tokens).toBe(900);
    expect(result.output_tokens).toBe(65);
    expect(result.cost_usd).toBeCloseTo((900 * 3 + 65 * 15) / 1e6, 12);
    expect(result.client_version).toBe('claude-test-1');
    const parsed = parseToolCalls(result.output);
    expect(parsed.ok && parsed.format).toBe('anthropic');
    expect(parsed.ok && parsed.calls.map((c) => [c.tool_name, c.arguments])).toEqual([
      ['orders.get', { order_id: 'ORD-1' }],
      ['get_customer', { customer_id: 'CUS-7' }],
    ]);
    expect(parsed.answer).toBe('Ada placed it.');
    expect(result.trajectory?.stop).toBe('answered');
    expect(result.trajectory?.steps.map((s) => s.kind)).toEqual(['model', 'tool_call', 'model', 'tool_call', 'model']);
  });

  it("stops at the turn cap: the last turn's calls are reported, not executed", async () => {
    const invoker = await target((_r, i) => message([toolUse(`toolu_${i}`, 'get_customer', { customer_id: `CUS-${i}` })]), {
      agentic_loop: { enabled: true, max_turns: 2 },
    });
    const result = await invoker.invoke(CASE);
    expect(server!.requests).toHaveLength(2);
    expect(result.ok && result.api_calls_made).toBe(1);
    expect(result.ok && result.trajectory?.stop).toBe('turn_cap');
    const parsed = result.ok ? parseToolCalls(result.output) : undefined;
    expect(parsed?.ok && parsed.calls).toHaveLength(2);
  });

  it('does not execute a tool_use whose input is not an object: the model gets an error result and the request stays valid', async () => {
    const responder: Responder = (_r, index) =>
      index === 0 ? message([toolUse('toolu_bad', 'orders_get', '{"order_id": ')]) : message([text('Sorry, I could not look it up.')]);
    const invoker = await target(responder);
    const result = await invoker.invoke(CASE);
    expect(result.ok && result.api_calls_made).toBe(0);
    const [returned] = toolResults(server!.requests[1]!);
    expect(returned).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_bad', is_error: true });
    expect(String(returned!.content)).toContain('not a JSON object');
    const history = (server!.requests[1]!.body as { messages: Array<{ content: unknown }> }).messages;
    expect((history[1]!.content as Array<Record<string, unknown>>)[0]).toMatchObject({ type: 'tool_use', input: {} });
    // stage 1 still sees the malformed call the model made
    const parsed = result.ok ? parseToolCalls(result.output) : undefined;
    expect(parsed?.ok).toBe(false);
  });

  it('429 then success: ResilientTarget retries after Retry-After and the conversation starts again', async () => {
    const responder: Responder = (_r, index) =>
      index === 0 ? anthropicError(429, 'slow down', { 'retry-after-ms': '20' }) : message([text('Nothing to call.')]);
    const inner = await target(responder, {}, false);
    const resilient = new ResilientTarget(inner, { timeoutInMs: 5_000, maxRetries: 2, retryDelayInMs: 1 });
    const result = await resilient.invoke(CASE);
    expect(result.ok).toBe(true);
    expect(result.attempts).toBe(2);
    expect(server!.requests).toHaveLength(2);
  });

  it('a 400 is a target error naming the status and not retried; 401 hints at the key header', async () => {
    const inner = await target(() => anthropicError(401, 'invalid x-api-key'), {}, false);
    const result = await new ResilientTarget(inner, { timeoutInMs: 5_000, maxRetries: 2, retryDelayInMs: 1 }).invoke(CASE);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result).toMatchObject({ error_code: 'target_error', http_status: 401, attempts: 1 });
    expect(result.message).toContain('settings.api_key_header');
  });

  it('prices prompt-cache writes and reads at their own rates and marks the cache prefix', async () => {
    const invoker = await target(
      () => message([text('ok')], { input: 50, output: 10, cacheWrite: 1000, cacheRead: 4000 }),
      {
        prompt_caching: true,
        system_prompt: 'Long shared instructions.',
        pricing: { input_per_mtok: 3, output_per_mtok: 15 },
      },
      false,
    );
    const result = await invoker.invoke(CASE);
    expect(result.ok && result.input_tokens).toBe(5050);
    expect(result.ok && result.cost_usd).toBeCloseTo((50 * 3 + 1000 * 3.75 + 4000 * 0.3 + 10 * 15) / 1e6, 12);
    const body = server!.requests[0]!.body as { system: unknown; tools: Array<Record<string, unknown>> };
    expect(body.system).toEqual([{ type: 'text', text: 'Long shared instructions.', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
  });

  it('sends the key as a Bearer token when api_key_header is authorization (gateways), and needs a key for api.anthropic.com', async () => {
    const invoker = await target(() => message([text('ok')]), { api_key_header: 'authorization' }, false);
    await invoker.invoke(CASE);
    expect(server!.requests[0]!.headers.authorization).toBe('Bearer sk-ant-test');
    const keyless = new AnthropicTarget(
      { kind: 'anthropic', model: 'claude-x', api_key_header: 'x-api-key', max_tokens: 10, prompt_caching: false },
      { secrets },
    );
    await expect(keyless.ready()).rejects.toBeInstanceOf(TargetConfigurationError);
  });

  it('an answer that is not a Messages API message is a target error', async () => {
    const invoker = await target(() => ({ body: { hello: 'world' } }), {}, false);
    const result = await invoker.invoke(CASE);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain('Messages API message');
  });
});
