import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TestCaseSchema, ToolCatalogSchema, type AnthropicTargetSettings } from '../../domain/index.js';
import { ExpectedDataProvider } from '../../evaluation/execution/index.js';
import { EnvironmentApiProvider, RETAIL_CATALOG } from '../../environments/index.js';
import { EnvSecretResolver } from '../../adapters/shared/envSecretResolver.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../testing/scriptedServer.test-helpers.js';
import { message, text, toolUse } from '../anthropic/anthropicMessages.test-helpers.js';
import { AnthropicTarget } from '../anthropic/anthropicTarget.js';
import { HttpTarget } from '../http/httpTarget.js';
import { ReplayTarget } from '../replay/replayTarget.js';
import { ReplayOutputsCache } from '../replay/replayOutputsCache.js';

const CONVERSATION = TestCaseSchema.parse({
  id: 'conv',
  turns: [
    {
      user: 'Who placed order ORD-1?',
      expected_tool_calls: [{ tool_name: 'orders_get', arguments: { order_id: 'ORD-1' } }],
      expected_raw_data: [{ order_id: 'ORD-1', customer: 'Ada' }],
    },
    { user: 'Cancel it.', expect_clarification: true },
    {
      user: 'Yes, cancel ORD-1.',
      expected_tool_calls: [{ tool_name: 'orders_cancel', arguments: { order_id: 'ORD-1' } }],
      expected_raw_data: [{ cancelled: true }],
    },
  ],
});
const CATALOG = ToolCatalogSchema.parse({
  name: 'shop',
  tool_schema_version: '1',
  tools: [
    { name: 'orders_get', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } },
    { name: 'orders_cancel', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } },
  ],
});

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Msg = { role: string; content: unknown };
const messagesOf = (r: RecordedRequest) => (r.body as { messages: Msg[] }).messages;

describe('conversation cases: every target gets the conversation so far', () => {
  it('anthropic (the real SDK): one Messages conversation, each turn a tool loop over the history; per-turn outputs and trajectories', async () => {
    server = await startScriptedServer((request, index) => {
      const responses = [
        message([toolUse('toolu_1', 'orders_get', { order_id: 'ORD-1' })], { input: 100, output: 10 }),
        message([text('Ada placed it.')], { input: 120, output: 8 }),
        message([text('Are you sure you want to cancel ORD-1?')], { input: 140, output: 9 }),
        message([toolUse('toolu_2', 'orders_cancel', { order_id: 'ORD-1' })], { input: 160, output: 10 }),
        message([text('Cancelled.')], { input: 180, output: 5 }),
      ];
      void request;
      return responses[index]!;
    });
    const settings: AnthropicTargetSettings = {
      kind: 'anthropic',
      base_url: server.origin,
      model: 'claude-test',
      api_key: { env: 'CLAUDE_KEY' },
      api_key_header: 'x-api-key',
      max_tokens: 256,
      prompt_caching: false,
      agentic_loop: { enabled: true, max_turns: 4 },
    };
    const target = new AnthropicTarget(settings, {
      secrets: new EnvSecretResolver({ CLAUDE_KEY: 'sk-ant-test' }),
      catalog: CATALOG,
      apiProvider: new ExpectedDataProvider(),
    });
    const result = await target.invoke(CONVERSATION);
    if (!result.ok) throw new Error(result.message);
    expect(result.turns?.map((t) => t.trajectory?.turns)).toEqual([2, 1, 2]);
    expect([result.input_tokens, result.output_tokens]).toEqual([700, 42]);
    // the last request holds the whole conversation: the first turn's tool round trip, the answers, the user turns
    const last = messagesOf(server.requests.at(-1)!);
    expect(last.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(last[0]!.content).toBe('Who placed order ORD-1?');
    expect(JSON.stringify(last[2]!.content)).toContain('"tool_use_id":"toolu_1"');
    expect(last[4]!.content).toBe('Cancel it.');
    // the expected-data provider served each turn's own data
    expect(result.turns?.[2]?.trajectory?.steps[1]).toMatchObject({ tool_name: 'orders_cancel', ok: true, result: { cancelled: true } });
    expect(result.output).toEqual(result.turns?.[2]?.output);
  });

  it('a stateful executor: ONE environment session for the whole conversation (turn 2 sees turn 1; faults count across turns)', async () => {
    const conversation = TestCaseSchema.parse({
      id: 'conv-state',
      turns: [
        { user: 'Cancel ORD-5003 and refund 5 on ORD-5001.' },
        { user: 'What is the status of ORD-5003 now?' },
        { user: 'Refund another 5 on ORD-5001.' },
      ],
      environment: { name: 'retail', faults: [{ tool: 'issue_refund', occurrence: 2, kind: 'error', expect_recovery: 'retry' }] },
    });
    const refund = (id: string) => toolUse(id, 'issue_refund', { order_id: 'ORD-5001', amount: 5, reason: 'damaged' });
    server = await startScriptedServer((_request, index) => {
      const responses = [
        message([toolUse('toolu_1', 'cancel_order', { order_id: 'ORD-5003' }), refund('toolu_2')]),
        message([text('Cancelled and refunded.')]),
        message([toolUse('toolu_3', 'get_order', { order_id: 'ORD-5003' })]),
        message([text('It is cancelled.')]),
        message([refund('toolu_4')]),
        message([refund('toolu_5')]),
        message([text('Refunded.')]),
      ];
      return responses[index]!;
    });
    const target = new AnthropicTarget(
      {
        kind: 'anthropic',
        base_url: server.origin,
        model: 'claude-test',
        api_key: { env: 'CLAUDE_KEY' },
        api_key_header: 'x-api-key',
        max_tokens: 256,
        prompt_caching: false,
        agentic_loop: { enabled: true, max_turns: 4 },
      },
      { secrets: new EnvSecretResolver({ CLAUDE_KEY: 'sk-ant-test' }), catalog: RETAIL_CATALOG, apiProvider: new EnvironmentApiProvider() },
    );
    const result = await target.invoke(conversation);
    if (!result.ok) throw new Error(result.message);
    const calls = (turn: number) =>
      result.turns![turn]!.trajectory!.steps.flatMap((s) =>
        s.kind === 'tool_call' ? [{ ok: s.ok, status: s.status, result: s.result }] : [],
      );
    // turn 2 reads the cancellation turn 1 made
    expect(calls(1)).toEqual([{ ok: true, status: 200, result: expect.objectContaining({ order_id: 'ORD-5003', status: 'cancelled' }) }]);
    // the fault names the 2nd issue_refund of the CONVERSATION: the first refund of turn 3; the retry gets refund #2
    expect(calls(2)).toEqual([
      { ok: false, status: 503, result: undefined },
      { ok: true, status: 200, result: expect.objectContaining({ refund_id: 'REF-ORD-5001-2' }) },
    ]);
  });

  it('http: one request per turn with {{messages}} = the conversation so far, the agent answers (and calls) kept in it', async () => {
    server = await startScriptedServer((_request, index) => ({
      body: [
        { answer: 'Looking it up.', calls: [{ name: 'orders_get', arguments: { order_id: 'ORD-1' } }], usage: { in: 10, out: 2 } },
        { answer: 'Which order do you mean?', usage: { in: 20, out: 3 } },
        { answer: 'Cancelled.', calls: [{ name: 'orders_cancel', arguments: { order_id: 'ORD-1' } }], usage: { in: 30, out: 4 } },
      ][index],
    }));
    const target = new HttpTarget(
      {
        kind: 'http',
        url: `${server.origin}/agent`,
        method: 'POST',
        headers: {},
        request_template: '{"question": {{question}}, "history": {{messages}}, "case": "{{test_case_id}}"}',
        response: {
          answer_path: '$.answer',
          tool_calls_path: '$.calls',
          input_tokens_path: '$.usage.in',
          output_tokens_path: '$.usage.out',
        },
      },
      { secrets: new EnvSecretResolver({}) },
    );
    const result = await target.invoke(CONVERSATION);
    if (!result.ok) throw new Error(result.message);
    expect(result.turns).toHaveLength(3);
    expect([result.input_tokens, result.output_tokens]).toEqual([60, 9]);
    const third = server.requests[2]!.body as {
      question: string;
      history: Array<{ role: string; content: unknown; tool_calls?: unknown[] }>;
    };
    expect(third.question).toBe('Yes, cancel ORD-1.');
    expect(third.history.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Who placed order ORD-1?'],
      ['assistant', 'Looking it up.'],
      ['user', 'Cancel it.'],
      ['assistant', 'Which order do you mean?'],
      ['user', 'Yes, cancel ORD-1.'],
    ]);
    expect(third.history[1]!.tool_calls).toEqual([
      { type: 'function', function: { name: 'orders_get', arguments: { order_id: 'ORD-1' } } },
    ]);
    // a single-question case gets a one-message history
    await target.invoke(TestCaseSchema.parse({ id: 'one', nl_query: 'Hi?', expected_tool_calls: [] }));
    expect((server.requests[3]!.body as { history: unknown }).history).toEqual([{ role: 'user', content: 'Hi?' }]);
  });

  it('replay: a recorded line with `turns` replays each turn; a malformed turn names the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evalp-replay-turns-'));
    try {
      writeFileSync(
        join(dir, 'outputs.jsonl'),
        [
          {
            test_case_id: 'conv',
            turns: [{ output: 'orders_get(order_id="ORD-1")', input_tokens: 5 }, { output: 'Which one?' }, { output: '[]' }],
          },
          { test_case_id: 'bad', turns: [{ output: 'x', input_tokens: -1 }] },
        ]
          .map((l) => JSON.stringify(l))
          .join('\n'),
      );
      const target = new ReplayTarget({ kind: 'replay', outputs_path: 'outputs.jsonl' }, { baseDir: dir, cache: new ReplayOutputsCache() });
      const replayed = await target.invoke(CONVERSATION);
      if (!replayed.ok) throw new Error(replayed.message);
      expect(replayed.turns?.map((t) => t.output)).toEqual(['orders_get(order_id="ORD-1")', 'Which one?', '[]']);
      expect(replayed.turns?.[0]?.input_tokens).toBe(5);
      expect(replayed.output).toBe('[]');
      const bad = await target.invoke(TestCaseSchema.parse({ id: 'bad', turns: [{ user: 'x' }] }));
      expect(bad).toMatchObject({
        ok: false,
        error_code: 'target_error',
        message: expect.stringContaining('turns[0]: input_tokens and output_tokens must be non-negative integers'),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
