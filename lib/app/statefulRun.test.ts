/**
 * Stateful cases in a real run on the embedded platform (issue 12): an `openai` target with its agentic loop against a
 * local chat-completions server (the real `openai` client) playing a scripted model, stage 3 on the `environment`
 * provider. The model's calls change the retail environment's state through the run (it reads ids from the results,
 * retries after a scripted failure); stage 3 compares the final state with the gold replay; a case with broken gold
 * is reported invalid and not scored.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetSystemSchema, TestCaseSchema, TestSuiteSchema, type Run, type RunStats, type Scorecard } from '../domain/index.js';
import { RETAIL_CATALOG } from '../environments/index.js';
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

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${runner}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function waitFor(runId: string, timeoutMs = 60_000): Promise<Run & { stats: RunStats | null }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { json } = await api('GET', `v1/runs/${runId}`);
    if (['completed', 'failed', 'cancelled', 'timed_out'].includes(json.status)) return json;
    if (Date.now() > until) throw new Error(`run ${runId} still ${json.status}: ${JSON.stringify(json.stats)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Message = { role: string; content: string | null };
const toolCall = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/**
 * The scripted model: find the customer by email, list their orders with the id the tool returned, refund the amount
 * in the question ("refund 20" in a greedy question) on the first delivered order; an error result makes it retry the
 * same call once, then answer.
 */
function scriptedModel(request: RecordedRequest) {
  const messages = (request.body as { messages: Message[] }).messages;
  if (messages.filter((m) => m.role === 'user').some((m) => /cancel ORD-5003/i.test(m.content ?? ''))) return conversationModel(messages);
  const question = messages.find((m) => m.role === 'user')?.content ?? '';
  const results = messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? 'null') as Record<string, any>);
  const usage = { promptTokens: 40 + 10 * messages.length, completionTokens: 10 };
  const amount = Number(/refund (\d+(?:\.\d+)?)/i.exec(question)?.[1] ?? '0');
  const last = results[results.length - 1];
  const ok = results.filter((r) => r && !('error' in r));
  const refund = (id: string) => toolCall(id, 'issue_refund', { order_id: 'ORD-5001', amount, reason: 'chipped mug' });
  if (results.length === 0)
    return completion(
      { role: 'assistant', content: null, tool_calls: [toolCall('a', 'find_customer', { email: 'ann@example.com' })] },
      usage,
    );
  if (ok.length === 1 && results.length === 1)
    return completion(
      { role: 'assistant', content: null, tool_calls: [toolCall('b', 'list_orders', { customer_id: ok[0]!.customer_id })] },
      usage,
    );
  if (results.length === 2) return completion({ role: 'assistant', content: null, tool_calls: [refund('c')] }, usage);
  if (last && 'error' in last && results.length === 3)
    return completion({ role: 'assistant', content: 'The refund service failed; trying again.', tool_calls: [refund('d')] }, usage);
  return completion(
    { role: 'assistant', content: last && 'refund_id' in last ? `Refunded ${amount} (${last.refund_id}).` : 'The refund failed.' },
    usage,
  );
}

/**
 * The scripted model of the cancel-then-status conversations: turn 1 cancels ORD-5003, turn 2 reads it again and answers
 * with the status the tool returned (so the answer shows whether the session carried turn 1's cancellation).
 */
function conversationModel(messages: Message[]) {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const since = messages.slice(lastUser + 1).filter((m) => m.role === 'tool');
  const question = messages[lastUser]?.content ?? '';
  const usage = { promptTokens: 30 + 10 * messages.length, completionTokens: 8 };
  if (/status/i.test(question)) {
    if (since.length === 0)
      return completion({ role: 'assistant', content: null, tool_calls: [toolCall('s', 'get_order', { order_id: 'ORD-5003' })] }, usage);
    const order = JSON.parse(since[0]!.content ?? 'null') as { status?: string; error?: string };
    return completion({ role: 'assistant', content: `ORD-5003 is ${order.status ?? `unknown (${order.error})`}.` }, usage);
  }
  if (since.length === 0)
    return completion({ role: 'assistant', content: null, tool_calls: [toolCall('c', 'cancel_order', { order_id: 'ORD-5003' })] }, usage);
  return completion({ role: 'assistant', content: 'Cancelled.' }, usage);
}

/** cancel then "what is its status now?" (twice, with other first messages: two conversations touching one order) */
const CONVERSATIONS = ['Cancel ORD-5003, I ordered it by mistake.', 'Please cancel ORD-5003, it is not needed.'].map((first, i) =>
  TestCaseSchema.parse({
    id: `cancel-then-status-${i + 1}`,
    turns: [
      {
        user: first,
        expected_tool_calls: [{ tool_name: 'cancel_order', arguments: { order_id: 'ORD-5003', reason: { $optional: true, $any: true } } }],
      },
      {
        user: 'What is the status of ORD-5003 now?',
        expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: 'ORD-5003' } }],
      },
    ],
    environment: { name: 'retail' },
    tool_catalog: { name: 'retail-env', version: '1' },
  }),
);

const GOLD = (amount: unknown) => [
  { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
  { tool_name: 'list_orders', arguments: { customer_id: { $from: { call: 'find_customer', path: '/customer_id' } } } },
  { tool_name: 'issue_refund', arguments: { order_id: 'ORD-5001', amount, reason: 'chipped mug' } },
];
const CASES = [
  { id: 'refund', nl_query: 'Refund 12.5 on the mug of ann@example.com', expected_tool_calls: GOLD(12.5), environment: { name: 'retail' } },
  {
    id: 'refund-greedy',
    nl_query: 'Refund 20 on the mug of ann@example.com (the mug cost 12.5)',
    expected_tool_calls: GOLD({ $range: { min: 1, max: 50 }, $value: 12.5 }),
    environment: { name: 'retail' },
  },
  {
    id: 'refund-flaky',
    nl_query: 'Refund 12.5 on the mug of ann@example.com, the API is flaky',
    expected_tool_calls: [...GOLD(12.5), GOLD(12.5)[2]!],
    environment: { name: 'retail', faults: [{ tool: 'issue_refund', kind: 'error', status: 503, expect_recovery: 'retry' }] },
  },
  {
    id: 'refund-broken-gold',
    nl_query: 'Refund 99 on the mug of ann@example.com',
    expected_tool_calls: GOLD(99),
    environment: { name: 'retail' },
  },
].map((c) => TestCaseSchema.parse({ ...c, call_order: 'any', tool_catalog: { name: 'retail-env', version: '1' } }));

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-stateful-'));
  model = await startScriptedServer(scriptedModel);
  platform = await startEmbeddedPlatform({
    dataDir,
    port: 0,
    logger: silentLogger,
    baseDir: dataDir,
    env: { ...process.env, RETAIL_MODEL_KEY: 'sk-local' },
  });
  const { stores, apiKeys, clock } = platform.services;
  const now = clock.now().toISOString();
  await stores.catalogs.upsert({ ...RETAIL_CATALOG, id: 'retail-env@1' });
  await stores.testCases.upsertTestCases([...CASES, ...CONVERSATIONS]);
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'retail-state-conversations',
      name: 'stateful retail conversations',
      kind: 'static',
      test_case_ids: CONVERSATIONS.map((c) => c.id),
      created_at: now,
      updated_at: now,
    }),
  );
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'retail-state',
      name: 'stateful retail',
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
        model: 'simulated-model-a',
        base_url: model.baseURL,
        api_key: { env: 'RETAIL_MODEL_KEY' },
        agentic_loop: { enabled: true, max_turns: 6 },
      },
      tool_catalog: { name: 'retail-env', version: '1' },
      max_retries: 0,
      created_at: now,
      updated_at: now,
    }),
  );
  // the same agent driving the retail MCP example server, which serves the environment (the state changes on the server)
  await stores.targets.upsert(
    TargetSystemSchema.parse({
      id: 'agent-mcp',
      name: 'agent over MCP',
      client_type: 'openai-mcp',
      eval_mode: 'mcp',
      settings: {
        kind: 'openai',
        model: 'simulated-model-a',
        base_url: model.baseURL,
        api_key: { env: 'RETAIL_MODEL_KEY' },
        agentic_loop: { enabled: true, max_turns: 6 },
      },
      mcp_servers: [
        {
          name: 'retail-env',
          transport: 'stdio',
          command: process.execPath,
          args: [
            '--import',
            'tsx',
            fileURLToPath(new URL('../../examples/retail-mcp/server.ts', import.meta.url)),
            '--environment',
            'retail:default',
          ],
          connect_timeout_ms: 60_000,
        },
      ],
      max_retries: 0,
      timeout_ms: 60_000,
      created_at: now,
      updated_at: now,
    }),
  );
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'retail-state-mcp',
      name: 'stateful retail over MCP',
      kind: 'static',
      test_case_ids: ['refund'],
      created_at: now,
      updated_at: now,
    }),
  );
  runner = (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, clock)).key;
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await model?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('stateful cases in a platform run (environment provider)', () => {
  it('runs the agent on the environment, compares final states, scores recovery, and reports broken gold as invalid', async () => {
    const created = await api('POST', 'v1/runs', {
      suite_id: 'retail-state',
      target_id: 'agent',
      config: { execution: { enabled: true, provider: 'environment' } },
    });
    expect(created.status).toBe(202);
    const run = await waitFor(created.json.id);
    expect([run.status, run.error, run.stats?.completed]).toEqual(['completed', null, 4]);
    const cards = (await api('GET', `v1/runs/${run.id}/scorecards?limit=10`)).json.items as Scorecard[];
    const byId = new Map(cards.map((c) => [c.test_case_id, c]));

    const refund = byId.get('refund')!;
    expect([refund.overall_passed, refund.stages.execution.status, refund.generated_nl_response]).toEqual([
      true,
      'passed',
      'Refunded 12.5 (REF-ORD-5001-1).',
    ]);
    // the agent's calls changed the environment during its loop: the refund it saw came from the state
    expect(refund.trajectory?.steps.filter((s) => s.kind === 'tool_call').map((s) => (s.kind === 'tool_call' ? s.result : null))).toEqual([
      { customer_id: 'CUS-1001', name: 'Ann Lee', email: 'ann@example.com', tier: 'gold' },
      { customer_id: 'CUS-1001', orders: expect.any(Array) },
      { refund_id: 'REF-ORD-5001-1', order_id: 'ORD-5001', amount: 12.5, refundable: 19.75 },
    ]);

    const greedy = byId.get('refund-greedy')!;
    expect([greedy.overall_passed, greedy.failing_stage, greedy.error_code, greedy.outcome]).toEqual([
      false,
      'execution',
      'state_mismatch',
      'failed',
    ]);
    expect(greedy.stages.execution.message).toContain('/orders/ORD-5001/refunded_total expected 12.5, got 20');

    // the scripted 503 went back to the model (not a target error); it retried, and that is what the gold expects
    const flaky = byId.get('refund-flaky')!;
    expect([flaky.overall_passed, flaky.outcome]).toEqual([true, 'passed']);
    expect(flaky.trajectory?.steps.find((s) => s.kind === 'tool_call' && !s.ok)).toMatchObject({
      tool_name: 'issue_refund',
      status: 503,
      scripted: true,
    });

    const broken = byId.get('refund-broken-gold')!;
    expect([broken.outcome, broken.error_code]).toEqual(['not_scored', 'invalid_case']);
    expect(broken.stages.syntax.message).toContain('does not replay on retail/default: 422 amount 99 exceeds the refundable 32.25');

    expect(run.stats).toMatchObject({ completed: 4, not_scored: 1, error_codes: { state_mismatch: 1, invalid_case: 1 } });
    expect(run.stats?.pass_rate).toBeCloseTo(2 / 3, 10); // the invalid case counts in no pass rate
    // and it does not degrade the run (it is the gold set's fault, not the platform's); a note counts it
    expect(run.notes).toContain(
      '1 invalid case not scored: the gold calls do not replay on the initial state (error code invalid_case; fix the gold)',
    );
  }, 90_000);

  it.each([
    ['the environment provider', 'agent'],
    ['the MCP server serving the environment (one process, a session key per conversation)', 'agent-mcp'],
  ])(
    'a multi-turn conversation carries its state from turn to turn on %s, and stays apart from other cases',
    async (_how, target) => {
      const created = await api('POST', 'v1/runs', {
        suite_id: 'retail-state-conversations',
        target_id: target,
        config: { execution: { enabled: true, provider: 'environment' } },
      });
      expect(created.status).toBe(202);
      const run = await waitFor(created.json.id, 120_000);
      expect([run.status, run.error, run.stats?.completed, run.stats?.passed]).toEqual(['completed', null, 2, 2]);
      const cards = (await api('GET', `v1/runs/${run.id}/scorecards?limit=10`)).json.items as Scorecard[];
      for (const card of cards) {
        // turn 2 read the cancellation of turn 1 (the same session), and neither conversation saw the other's: both
        // cancelled ORD-5003 from the initial state (a shared state would have answered the second with a 409)
        expect(
          card.turns?.map((t) => t.generated_nl_response),
          card.test_case_id,
        ).toEqual(['Cancelled.', 'ORD-5003 is cancelled.']);
        expect(card.turns?.[1]?.stages.execution).toMatchObject({
          status: 'passed',
          message:
            "The retail state after turn 2 (turns 1-2 replayed) equals the gold's and the 1 expected calls returned what the gold's did.",
        });
      }
    },
    150_000,
  );

  it('an MCP-driven agent changes the state on the MCP server serving the environment; stage 3 scores it on fresh instances', async () => {
    const created = await api('POST', 'v1/runs', {
      suite_id: 'retail-state-mcp',
      target_id: 'agent-mcp',
      config: { execution: { enabled: true, provider: 'environment' } },
    });
    expect(created.status).toBe(202);
    const run = await waitFor(created.json.id, 120_000);
    expect([run.status, run.error, run.stats?.completed]).toEqual(['completed', null, 1]);
    const [card] = (await api('GET', `v1/runs/${run.id}/scorecards?limit=10`)).json.items as Scorecard[];
    expect([card!.overall_passed, card!.stages.execution.status, card!.generated_nl_response]).toEqual([
      true,
      'passed',
      'Refunded 12.5 (REF-ORD-5001-1).',
    ]);
    // the refund id and the refundable amount came from the server's state
    expect(card!.trajectory?.steps.filter((s) => s.kind === 'tool_call').map((s) => s.tool_name)).toEqual([
      'find_customer',
      'list_orders',
      'issue_refund',
    ]);
    expect(JSON.stringify(card!.trajectory)).toContain('REF-ORD-5001-1');
  }, 150_000);
});
