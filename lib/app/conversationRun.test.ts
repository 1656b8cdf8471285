/**
 * A conversation case through the whole run path on the embedded platform: an `openai` target with its tool loop
 * against a local chat-completions server (the real `openai` client) playing a scripted model that reads the whole
 * conversation it is sent (earlier user turns, its own answers, tool results). Queue, per-turn scorecard, live
 * statistics (error codes), the run view's efficiency and the report's failing turn are all checked.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetSystemSchema, TestCaseSchema, TestSuiteSchema, ToolCatalogSchema, type Scorecard } from '../domain/index.js';
import { createApiKey } from '../api/index.js';
import { silentLogger } from '../host/index.js';
import {
  completion,
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServer,
} from '../targets/testing/scriptedServer.test-helpers.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';

let platform: EmbeddedPlatform;
let model: ScriptedServer;
let dataDir: string;
let runner: string;
/** every request the model got: what it saw of the conversation */
const seen: Array<Array<{ role: string; content: string | null }>> = [];

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${runner}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function waitFor(runId: string, timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { json } = await api('GET', `v1/runs/${runId}`);
    if (['completed', 'degraded', 'failed', 'cancelled', 'timed_out'].includes(json.status)) return json;
    if (Date.now() > until) throw new Error(`run ${runId} still ${json.status}: ${JSON.stringify(json.stats)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Message = { role: string; content: string | null; tool_calls?: unknown[] };
const toolCall = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/**
 * The scripted model answers the latest user message, reading what the conversation already holds: "Find
 * <email>" looks the customer up; "refund" without an order asks which one, except in the "guess" conversation
 * where it guesses; "Order O-2" refunds it for the customer id an earlier tool result gave.
 */
function scriptedModel(request: RecordedRequest) {
  const messages = (request.body as { messages: Message[] }).messages;
  seen.push(messages.map((m) => ({ role: m.role, content: m.content })));
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const question = messages[lastUser]?.content ?? '';
  const resultsNow = messages.slice(lastUser).filter((m) => m.role === 'tool');
  const allResults = messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? 'null') as Record<string, unknown>);
  const usage = { promptTokens: 40 + 10 * messages.length, completionTokens: 10 };
  if (question.startsWith('Find')) {
    if (resultsNow.length === 0)
      return completion(
        { role: 'assistant', content: null, tool_calls: [toolCall('f1', 'find_customer', { email: 'ann@example.com' })] },
        usage,
      );
    return completion({ role: 'assistant', content: `Found customer ${String(allResults[0]?.customer_id)}.` }, usage);
  }
  if (/refund/i.test(question) && !/O-\d/.test(question)) {
    if (question.includes('guess') && resultsNow.length === 0) {
      return completion(
        { role: 'assistant', content: null, tool_calls: [toolCall('g1', 'refund_order', { order_id: 'O-1', customer_id: 'C-42' })] },
        usage,
      );
    }
    if (resultsNow.length > 0) return completion({ role: 'assistant', content: 'Refunded O-1.' }, usage);
    return completion({ role: 'assistant', content: 'Which order should I refund?' }, usage);
  }
  if (question.includes('O-2')) {
    if (resultsNow.length === 0) {
      const customer = allResults.find((r) => typeof r.customer_id === 'string')?.customer_id ?? 'unknown';
      return completion(
        { role: 'assistant', content: null, tool_calls: [toolCall('r1', 'refund_order', { order_id: 'O-2', customer_id: customer })] },
        usage,
      );
    }
    return completion({ role: 'assistant', content: 'Order O-2 is refunded.' }, usage);
  }
  return completion({ role: 'assistant', content: 'Sorry?' }, usage);
}

const CATALOG = ToolCatalogSchema.parse({
  name: 'shop',
  tool_schema_version: '1',
  tools: [
    { name: 'find_customer', parameters: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] } },
    {
      name: 'refund_order',
      parameters: { type: 'object', properties: { order_id: { type: 'string' }, customer_id: { type: 'string' } }, required: ['order_id'] },
    },
  ],
});
const CASES = [
  {
    id: 'refund-conversation',
    turns: [
      {
        user: 'Find the customer ann@example.com',
        expected_tool_calls: [{ tool_name: 'find_customer', arguments: { email: 'ann@example.com' } }],
        expected_raw_data: [{ customer_id: 'C-42' }],
      },
      { user: 'Please refund an order of hers.', expect_clarification: true },
      {
        user: 'Order O-2.',
        expected_tool_calls: [{ tool_name: 'refund_order', arguments: { order_id: 'O-2', customer_id: 'C-42' } }],
        expected_raw_data: [{ refund_id: 'R-1', status: 'refunded' }],
      },
    ],
  },
  {
    id: 'refund-guess',
    turns: [
      { user: 'I guess you can refund my order?', expect_clarification: true },
      {
        user: 'Order O-2.',
        expected_tool_calls: [{ tool_name: 'refund_order', arguments: { order_id: 'O-2' }, allow_extra_arguments: true }],
        expected_raw_data: [{ refund_id: 'R-2' }],
      },
    ],
  },
].map((c) =>
  TestCaseSchema.parse({ ...c, tool_catalog: { name: 'shop', version: '1' }, metadata: { category: 'refunds', tags: ['conversation'] } }),
);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-conversation-'));
  model = await startScriptedServer(scriptedModel);
  platform = await startEmbeddedPlatform({
    dataDir,
    port: 0,
    logger: silentLogger,
    baseDir: dataDir,
    env: { ...process.env, SHOP_MODEL_KEY: 'sk-local' },
  });
  const { stores, apiKeys, clock } = platform.services;
  const now = clock.now().toISOString();
  await stores.catalogs.upsert({ ...CATALOG, id: 'shop@1' });
  runner = (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner', 'test-admin'] }, clock)).key;
  // the cases go in through the API, as a user's would
  const imported = await api('POST', 'v1/test-cases', CASES[0]);
  if (imported.status !== 201) throw new Error(`POST v1/test-cases answered ${imported.status}: ${JSON.stringify(imported.json)}`);
  await stores.testCases.upsertTestCases(CASES.slice(1));
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'shop',
      name: 'refund conversations',
      kind: 'static',
      test_case_ids: CASES.map((c) => c.id),
      created_at: now,
      updated_at: now,
    }),
  );
  await stores.targets.upsert(
    TargetSystemSchema.parse({
      id: 'agent',
      name: 'agent',
      client_type: 'openai-tools',
      settings: {
        kind: 'openai',
        model: 'gpt-4o',
        base_url: model.baseURL,
        api_key: { env: 'SHOP_MODEL_KEY' },
        system_prompt: 'You are a shop assistant.',
        agentic_loop: { enabled: true, max_turns: 4 },
      },
      tool_catalog: { name: 'shop', version: '1' },
      max_retries: 0,
      created_at: now,
      updated_at: now,
    }),
  );
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await model?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a conversation case in a platform run', () => {
  it('each turn sees the conversation so far; the scorecard keeps a result per turn; stats, run view and report name the failing turn', async () => {
    const created = await api('POST', 'v1/runs', { suite_id: 'shop', target_id: 'agent', config: { execution: { provider: 'expected' } } });
    expect(created.status).toBe(202);
    const run = await waitFor(created.json.id);
    expect([run.status, run.error, run.stats?.completed, run.stats?.passed]).toEqual(['completed', null, 2, 1]);
    expect(run.stats?.error_codes).toEqual({ called_instead_of_clarifying: 1 });

    const cards = (await api('GET', `v1/runs/${run.id}/scorecards?limit=10`)).json.items as Scorecard[];
    const byId = new Map(cards.map((c) => [c.test_case_id, c]));
    const good = byId.get('refund-conversation')!;
    expect(good.overall_passed).toBe(true);
    expect(good.turns?.map((t) => [t.passed, t.generated_nl_response, t.generated_tool_calls.map((c) => c.tool_name)])).toEqual([
      [true, 'Found customer C-42.', ['find_customer']],
      [true, 'Which order should I refund?', []],
      [true, 'Order O-2 is refunded.', ['refund_order']],
    ]);
    // turn 3's call used the customer id of turn 1's tool result: the model saw the whole history
    expect(good.turns?.[2]?.generated_tool_calls[0]?.arguments).toEqual({ order_id: 'O-2', customer_id: 'C-42' });
    expect(good.turns?.[2]?.trajectory).toMatchObject({ turns: 2, stop: 'answered' });
    expect(good.api_calls_made).toBe(2);
    expect(good.efficiency).toMatchObject({
      calls_made: 2,
      calls_needed: 2,
      redundant_calls: 0,
      model_turns: 5,
      conversation_turns: 3,
      score: 1,
    });
    const lastRequest = seen.find((m) => m.some((x) => x.content === 'Order O-2.') && m.some((x) => x.content === 'Found customer C-42.'));
    expect(lastRequest?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'user']);

    const guess = byId.get('refund-guess')!;
    expect([guess.overall_passed, guess.failing_turn, guess.failing_stage, guess.error_code, guess.outcome]).toEqual([
      false,
      0,
      'logic',
      'called_instead_of_clarifying',
      'failed',
    ]);
    expect(guess.turns?.[1]?.passed).toBe(true);

    // a finished run's view carries the efficiency over its scored cases
    expect(run.efficiency).toMatchObject({ cases: 2, calls_made: 4, calls_needed: 3, redundant_calls: 0 });

    const report = (await api('GET', `v1/runs/${run.id}/report?format=json`)).json;
    expect(report.efficiency).toEqual(run.efficiency);
    expect(report.failures.cases[0]).toMatchObject({
      test_case_id: 'refund-guess',
      failing_turn: 0,
      error_code: 'called_instead_of_clarifying',
      question: 'turn 1 of 2: I guess you can refund my order?',
      expected_calls: [],
      actual_calls: [{ tool_name: 'refund_order', arguments: { order_id: 'O-1', customer_id: 'C-42' } }],
    });
    const markdown = await fetch(`${platform.url}/api/v1/runs/${run.id}/report?format=markdown`, {
      headers: { authorization: `Bearer ${runner}` },
    });
    const text = await markdown.text();
    expect(text).toContain('Efficiency 0.750 over 2 cases: 4 calls made for 3 needed, no redundant call; 4.5 model turns');
    expect(text).toContain('turn 1 of 2: the turn should be answered with a question');
  }, 90_000);
});
