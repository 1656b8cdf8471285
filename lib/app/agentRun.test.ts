/**
 * An agent evaluated in a real run on the embedded platform: an `openai` target with its agentic loop against a local
 * chat-completions server (the real `openai` client) that plays a scripted model. The model sees the tool results
 * the platform sends back (it reads the customer id from the first result to make its second call), so the loop
 * really runs; the trajectory lands on the scorecards. Also: a run whose configuration cannot work is refused with
 * 422 naming the field, and a configuration that breaks after the run started fails the run at once.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TargetSystemSchema,
  TestCaseSchema,
  TestSuiteSchema,
  ToolCatalogSchema,
  type Run,
  type RunStats,
  type Scorecard,
} from '../domain/index.js';
import { createApiKey } from '../api/index.js';
import { silentLogger } from '../host/index.js';
import {
  completion,
  startScriptedServer,
  type RecordedRequest,
  type ScriptedServer,
} from '../targets/testing/scriptedServer.test-helpers.js';
import { createRun } from '../runs/createRun.js';
import { ORCHESTRATOR_RUN_EVALUATION } from '../runs/activityNames.js';
import { runOrchestrationInput } from '../runs/runInput.js';
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

async function waitFor(runId: string, timeoutMs = 30_000): Promise<Run & { stats: RunStats | null }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { json } = await api('GET', `v1/runs/${runId}`);
    if (['completed', 'failed', 'cancelled', 'timed_out'].includes(json.status)) return json;
    if (Date.now() > until) throw new Error(`run ${runId} still ${json.status}: ${JSON.stringify(json.stats)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Message = { role: string; content: string | null; tool_calls?: unknown[] };
/** conversations of the "flaky weather" question started so far: the second one goes wrong */
let flakyStarts = 0;
const toolCall = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/**
 * The scripted model. "orders of <email>": find_customer, then list_orders with the customer_id the tool returned,
 * then an answer that quotes the order count. "hurry": both calls at once, list_orders first (a dependency
 * violation). "weather": one call, then the answer.
 */
function scriptedModel(request: RecordedRequest) {
  const messages = (request.body as { messages: Message[] }).messages;
  const question = messages.find((m) => m.role === 'user')?.content ?? '';
  const results = messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? 'null') as Record<string, unknown>);
  const usage = { promptTokens: 50 + 10 * messages.length, completionTokens: 12 };
  if (question.includes('weather')) {
    if (results.length === 0) {
      const city = question.includes('flaky') && ++flakyStarts === 2 ? 'Lyon' : 'Paris';
      return completion({ role: 'assistant', content: null, tool_calls: [toolCall('w1', 'get_weather', { city })] }, usage);
    }
    return completion({ role: 'assistant', content: `It is ${String(results[0]!.sky)} in Paris.` }, usage);
  }
  if (question.includes('hurry')) {
    if (results.length === 0) {
      return completion(
        {
          role: 'assistant',
          content: 'Fetching both at once.',
          tool_calls: [
            toolCall('h1', 'list_orders', { customer_id: 'C-42' }),
            toolCall('h2', 'find_customer', { email: 'ann@example.com' }),
          ],
        },
        usage,
      );
    }
    return completion({ role: 'assistant', content: 'Ann has 2 orders.' }, usage);
  }
  if (results.length === 0)
    return completion(
      {
        role: 'assistant',
        content: 'Let me look the customer up.',
        tool_calls: [toolCall('c1', 'find_customer', { email: 'ann@example.com' })],
      },
      usage,
    );
  if (results.length === 1)
    return completion(
      { role: 'assistant', content: null, tool_calls: [toolCall('c2', 'list_orders', { customer_id: results[0]!.customer_id })] },
      usage,
    );
  const found = results[1]?.orders;
  return completion(
    { role: 'assistant', content: Array.isArray(found) ? `Ann has ${found.length} orders.` : 'I could not find the orders.' },
    usage,
  );
}

const CATALOG = ToolCatalogSchema.parse({
  name: 'crm',
  tool_schema_version: '1',
  tools: [
    { name: 'find_customer', parameters: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] } },
    { name: 'list_orders', parameters: { type: 'object', properties: { customer_id: { type: 'string' } }, required: ['customer_id'] } },
    { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  ],
});
const ORDER_CALLS = [
  { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
  { tool_name: 'list_orders', arguments: { customer_id: 'C-42' }, depends_on: [0] },
];
const ORDER_DATA = [{ customer_id: 'C-42' }, { orders: [{ id: 'O-1' }, { id: 'O-2' }] }];
const CASES = [
  {
    id: 'orders',
    nl_query: 'List the orders of ann@example.com',
    expected_tool_calls: ORDER_CALLS,
    call_order: 'dependency',
    expected_raw_data: ORDER_DATA,
  },
  {
    id: 'orders-hurry',
    nl_query: 'In a hurry: the orders of ann@example.com',
    expected_tool_calls: ORDER_CALLS,
    call_order: 'dependency',
    expected_raw_data: ORDER_DATA,
  },
  {
    id: 'weather',
    nl_query: 'What is the weather in Paris?',
    expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }],
    expected_raw_data: [{ sky: 'sunny' }],
  },
  {
    id: 'weather-flaky',
    nl_query: 'A flaky one: what is the weather in Paris?',
    expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }],
    expected_raw_data: [{ sky: 'sunny' }],
  },
].map((c) => TestCaseSchema.parse({ ...c, tool_catalog: { name: 'crm', version: '1' } }));

async function putTarget(id: string, settings: Record<string, unknown>): Promise<void> {
  const now = platform.services.clock.now().toISOString();
  await platform.services.stores.targets.upsert(
    TargetSystemSchema.parse({
      id,
      name: id,
      client_type: 'openai-tools',
      settings,
      tool_catalog: { name: 'crm', version: '1' },
      max_retries: 0,
      created_at: now,
      updated_at: now,
    }),
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-agent-'));
  model = await startScriptedServer(scriptedModel);
  platform = await startEmbeddedPlatform({
    dataDir,
    port: 0,
    logger: silentLogger,
    baseDir: dataDir,
    env: { ...process.env, CRM_MODEL_KEY: 'sk-local' },
  });
  const { stores, apiKeys, clock } = platform.services;
  const now = clock.now().toISOString();
  await stores.catalogs.upsert({ ...CATALOG, id: 'crm@1' });
  await stores.testCases.upsertTestCases(CASES);
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'crm',
      name: 'crm agent',
      kind: 'static',
      test_case_ids: CASES.slice(0, 3).map((c) => c.id),
      created_at: now,
      updated_at: now,
    }),
  );
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'crm-trials',
      name: 'crm agent, with a flaky case',
      kind: 'static',
      test_case_ids: ['orders', 'orders-hurry', 'weather-flaky'],
      created_at: now,
      updated_at: now,
    }),
  );
  const loop = { enabled: true, max_turns: 4 };
  await putTarget('agent', {
    kind: 'openai',
    model: 'gpt-4o',
    base_url: model.baseURL,
    api_key: { env: 'CRM_MODEL_KEY' },
    agentic_loop: loop,
    pricing: { input_per_mtok: 2.5, output_per_mtok: 10 },
  });
  await putTarget('agent-no-key', {
    kind: 'openai',
    model: 'gpt-4o',
    base_url: model.baseURL,
    api_key: { env: 'CRM_MISSING_KEY' },
    agentic_loop: loop,
  });
  runner = (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, clock)).key;
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await model?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('an agent with a tool loop in a platform run', () => {
  it("runs the loop through the run's stage-3 provider; every step lands on the scorecard; stage 2 applies the dependency order", async () => {
    const created = await api('POST', 'v1/runs', { suite_id: 'crm', target_id: 'agent', config: { execution: { provider: 'expected' } } });
    expect(created.status).toBe(202);
    const run = await waitFor(created.json.id);
    expect([run.status, run.error, run.stats?.completed]).toEqual(['completed', null, 3]);
    const cards = (await api('GET', `v1/runs/${run.id}/scorecards?limit=10`)).json.items as Scorecard[];
    const byId = new Map(cards.map((c) => [c.test_case_id, c]));

    const orders = byId.get('orders')!;
    expect(orders.overall_passed).toBe(true);
    expect(orders.generated_tool_calls.map((c) => [c.tool_name, c.arguments])).toEqual([
      ['find_customer', { email: 'ann@example.com' }],
      ['list_orders', { customer_id: 'C-42' }],
    ]);
    expect(orders.generated_nl_response).toBe('Ann has 2 orders.');
    expect(orders.api_calls_made).toBe(2);
    expect(orders.trajectory).toMatchObject({
      turns: 3,
      stop: 'answered',
      steps: [
        { kind: 'model', turn: 1, text: 'Let me look the customer up.', calls: 1, input_tokens: 60, output_tokens: 12 },
        {
          kind: 'tool_call',
          turn: 1,
          tool_name: 'find_customer',
          arguments: { email: 'ann@example.com' },
          executed: true,
          ok: true,
          result: { customer_id: 'C-42' },
        },
        { kind: 'model', turn: 2, text: null, calls: 1 },
        {
          kind: 'tool_call',
          turn: 2,
          tool_name: 'list_orders',
          arguments: { customer_id: 'C-42' },
          ok: true,
          result: { orders: [{ id: 'O-1' }, { id: 'O-2' }] },
        },
        { kind: 'model', turn: 3, text: 'Ann has 2 orders.', calls: 0 },
      ],
    });
    // tokens and cost are the sum over the three model requests (the conversation grows by 2 messages a turn)
    expect([orders.input_tokens, orders.output_tokens]).toEqual([60 + 80 + 100, 36]);
    expect(orders.estimated_cost_usd).toBeCloseTo((240 * 2.5 + 36 * 10) / 1e6, 12);

    const hurry = byId.get('orders-hurry')!;
    expect([hurry.overall_passed, hurry.failing_stage, hurry.error_code]).toEqual([false, 'logic', 'wrong_order']);
    expect(hurry.stages.logic.message).toBe('list_orders was called before find_customer, whose result it uses');
    expect(hurry.trajectory?.steps[0]).toMatchObject({ kind: 'model', text: 'Fetching both at once.', calls: 2 });

    expect(byId.get('weather')).toMatchObject({ overall_passed: true, generated_nl_response: 'It is sunny in Paris.' });

    // the reports' failure view shows the failing agent's steps
    const report = (await api('GET', `v1/runs/${run.id}/report?format=json`)).json;
    expect(report.failures.total).toBe(1);
    expect(report.failures.cases[0]).toMatchObject({
      test_case_id: 'orders-hurry',
      trajectory: [
        'turn 1: "Fetching both at once." (2 calls, 60+12 tokens)',
        '  list_orders {"customer_id":"C-42"} → {"orders":[{"id":"O-1"},{"id":"O-2"}]}',
        '  find_customer {"email":"ann@example.com"} → {"customer_id":"C-42"}',
        'turn 2: "Ann has 2 orders." (0 calls, 90+12 tokens)',
      ],
    });
    const markdown = await fetch(`${platform.url}/api/v1/runs/${run.id}/report?format=markdown`, {
      headers: { authorization: `Bearer ${runner}` },
    }).then((r) => r.text());
    expect(markdown).toContain(
      'trajectory:<br>turn 1: "Fetching both at once." (2 calls, 60+12 tokens)<br>  list\\_orders {"customer\\_id":"C-42"}',
    );
  });

  it('a run whose configuration cannot work is refused with 422 naming each field, and nothing is stored', async () => {
    const before = (await api('GET', 'v1/runs?limit=100')).json.total as number;
    const noKey = await api('POST', 'v1/runs', {
      suite_id: 'crm',
      target_id: 'agent-no-key',
      config: { execution: { provider: 'expected' } },
    });
    expect(noKey.status).toBe(422);
    expect(noKey.json.errors).toEqual([{ path: 'target.settings.api_key', message: expect.stringContaining('CRM_MISSING_KEY') }]);

    const noCassette = await api('POST', 'v1/runs', {
      suite_id: 'crm',
      target_id: 'agent',
      config: { execution: { provider: 'recorded' } },
    });
    expect(noCassette.status).toBe(422);
    expect(noCassette.json.errors).toEqual([
      { path: 'config.execution.cassette_path', message: expect.stringContaining('executes its tool calls through the stage-3 provider') },
    ]);

    const badCassette = join(dataDir, 'broken.jsonl');
    await writeFile(badCassette, 'not json\n');
    const judge = await api('POST', 'v1/runs', {
      suite_id: 'crm',
      target_id: 'agent',
      config: {
        execution: { enabled: true, provider: 'recorded', cassette_path: 'broken.jsonl' },
        semantics: { enabled: true, judge: 'openai' },
      },
    });
    expect(judge.status).toBe(422);
    expect(judge.json.errors.map((e: { path: string }) => e.path)).toEqual(['config.execution.cassette_path', 'config.semantics.judge']);
    expect((await api('GET', 'v1/runs?limit=100')).json.total).toBe(before);
  });

  it('a configuration that breaks after the run started fails the run at once with the reason, instead of dead-lettering every case', async () => {
    // a run started without the POST check (as a schedule or an edited target can): its cassette does not exist
    const { stores, clock } = platform.services;
    const run = await createRun(
      { suite_id: 'crm', target_id: 'agent', config: { execution: { provider: 'recorded', cassette_path: 'gone.jsonl' } } },
      { stores, clock },
    );
    const started = Date.now();
    platform.host.taskHub.startNew(ORCHESTRATOR_RUN_EVALUATION, { instanceId: run.id, input: runOrchestrationInput(run.id) });
    const done = await waitFor(run.id, 20_000);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/^stage-3 configuration \(config\.execution\): cassette .*gone\.jsonl does not exist/);
    // the orchestration ended too (not left waiting for its 24-hour deadline), and the status stayed `failed`
    const orchestration = await platform.host.taskHub.waitForCompletion(run.id, { timeoutInMs: 10_000 });
    expect(orchestration.runtimeStatus).toBe('Completed');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await api('GET', `v1/runs/${run.id}`)).json).toMatchObject({ status: 'failed', error: done.error });
    expect((await api('GET', `v1/runs/${run.id}/scorecards`)).json.total).toBe(0);
    expect(platform.host.queues.listDeadLetters('evaluate-cases')).toEqual([]);
  });

  it('trials: 3 scores every case three times, one scorecard per trial; pass@1, pass@3, pass^3 and the flaky case in GET /runs', async () => {
    const body = { suite_id: 'crm-trials', target_id: 'agent', config: { execution: { provider: 'expected' }, trials: 3 } };
    const created = await api('POST', 'v1/runs', body);
    expect(created.status).toBe(202);
    const run = await waitFor(created.json.id);
    expect([run.status, run.total_cases, run.stats?.completed]).toEqual(['completed', 9, 9]);
    const cards = (await api('GET', `v1/runs/${run.id}/scorecards?limit=100`)).json.items as Scorecard[];
    const trialsOfCase = (id: string) =>
      cards
        .filter((c) => c.test_case_id === id)
        .map((c) => c.trial ?? 1)
        .sort();
    expect([trialsOfCase('orders'), trialsOfCase('orders-hurry'), trialsOfCase('weather-flaky')]).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
    expect(cards.filter((c) => c.test_case_id === 'weather-flaky' && c.overall_passed)).toHaveLength(2);
    // orders 3/3, hurry 0/3, weather-flaky 2/3 (hand-computed)
    const view = (await api('GET', `v1/runs/${run.id}`)).json;
    expect(view.trial_stats).toEqual({
      trials: 3,
      cases: 3,
      complete_cases: 3,
      pass_at_1: expect.closeTo((1 + 0 + 2 / 3) / 3, 12),
      pass_at_k: expect.closeTo((1 + 0 + 1) / 3, 12),
      pass_hat_k: expect.closeTo((1 + 0 + 0) / 3, 12),
      flaky_cases: 1,
      flaky_case_ids: ['weather-flaky'],
    });
    // the run's pass rate counts every trial: equal to pass@1 when every case has all its trials
    expect(view.stats.pass_rate).toBeCloseTo(5 / 9, 12);
    // and in the reports
    const report = (await api('GET', `v1/runs/${run.id}/report?format=json`)).json;
    expect(report.trial_stats).toEqual(view.trial_stats);
    const markdown = await fetch(`${platform.url}/api/v1/runs/${run.id}/report?format=markdown`, {
      headers: { authorization: `Bearer ${runner}` },
    }).then((r) => r.text());
    expect(markdown).toContain(
      '3 trials per case (3 of 3 cases complete): pass@1 55.6%, pass@3 66.7%, pass^3 33.3%; 1 flaky case: weather-flaky.',
    );
    // trial 1 is stored under the case id, as before trials existed
    expect((await platform.services.stores.scorecards.getScorecard(run.id, 'orders'))?.trial).toBeUndefined();
  });

  it("orchestrator mode: an agent endpoint's routing and resolved entities are scored in stage 2 when the case expects them; its reported usage is its cost", async () => {
    // a multi-agent endpoint: routes by keyword, resolves the customer, reports per-agent usage
    const orchestrator = await startScriptedServer((request) => {
      const q = (request.body as { q: string }).q;
      const agent = q.includes('refund') ? 'orders' : q.includes('weather') ? 'weather' : 'orders';
      const entities = q.includes('bob') ? { customer_id: 'C-7' } : { customer_id: 'C-42' };
      return {
        body: {
          answer: `Handled by ${agent}.`,
          agent,
          reason: `the question is about ${agent}`,
          entities,
          usage: [
            { in: 100, out: 10, usd: 0.001 },
            { in: 50, out: 5, usd: 0.0005 },
          ],
        },
      };
    });
    try {
      const { stores, clock } = platform.services;
      const now = clock.now().toISOString();
      const cases = [
        { id: 'route-ok', nl_query: 'Orders of ann?', expected_agent: 'Orders', expected_entities: { customer_id: 'C-42' } },
        { id: 'route-wrong-agent', nl_query: 'A refund question about the weather', expected_agent: 'billing' },
        { id: 'route-wrong-entity', nl_query: 'Orders of bob?', expected_agent: 'orders', expected_entities: { customer_id: 'C-42' } },
        { id: 'route-not-expected', nl_query: 'What is the weather?' },
      ].map((c) => TestCaseSchema.parse({ ...c, expected_tool_calls: [] }));
      await stores.testCases.upsertTestCases(cases);
      await stores.suites.upsert(
        TestSuiteSchema.parse({
          id: 'routing',
          name: 'routing',
          kind: 'static',
          test_case_ids: cases.map((c) => c.id),
          created_at: now,
          updated_at: now,
        }),
      );
      await stores.targets.upsert(
        TargetSystemSchema.parse({
          id: 'orchestrator',
          name: 'custom orchestrator',
          client_type: 'custom-orchestrator',
          eval_mode: 'orchestrator',
          settings: {
            kind: 'http',
            url: `${orchestrator.origin}/ask`,
            request_template: '{"q": {{question}}}',
            response: {
              answer_path: '$.answer',
              agent_path: '$.agent',
              reason_path: '$.reason',
              entities_path: '$.entities',
              input_tokens_path: '$.usage[*].in',
              output_tokens_path: '$.usage[*].out',
              cost_path: '$.usage[*].usd',
            },
          },
          created_at: now,
          updated_at: now,
        }),
      );
      const created = await api('POST', 'v1/runs', { suite_id: 'routing', target_id: 'orchestrator' });
      expect(created.status).toBe(202);
      const run = await waitFor(created.json.id);
      expect(run.status).toBe('completed');
      const cards = new Map(
        ((await api('GET', `v1/runs/${run.id}/scorecards?limit=10`)).json.items as Scorecard[]).map((c) => [c.test_case_id, c]),
      );
      expect(cards.get('route-ok')).toMatchObject({
        overall_passed: true,
        agent: 'orders',
        entities: { customer_id: 'C-42' },
        input_tokens: 150,
        output_tokens: 15,
      });
      expect(cards.get('route-ok')!.estimated_cost_usd).toBeCloseTo(0.0015, 12);
      expect(cards.get('route-ok')!.stages.logic.details).toMatchObject({
        routing: { passed: true, agent: { expected: 'Orders', actual: 'orders', passed: true } },
      });
      expect(cards.get('route-wrong-agent')).toMatchObject({ overall_passed: false, failing_stage: 'logic', error_code: 'wrong_agent' });
      expect(cards.get('route-wrong-agent')!.stages.logic.message).toBe('routed to "orders" instead of "billing"');
      expect(cards.get('route-wrong-entity')).toMatchObject({
        overall_passed: false,
        failing_stage: 'logic',
        error_code: 'entity_mismatch',
      });
      expect(cards.get('route-wrong-entity')!.stages.logic.message).toContain('/customer_id');
      // nothing expected about routing: only the calls (none) and the answer count
      expect(cards.get('route-not-expected')).toMatchObject({ overall_passed: true, agent: 'weather' });
      expect((cards.get('route-not-expected')!.stages.logic.details as Record<string, unknown>).routing).toBeUndefined();
    } finally {
      await orchestrator.close();
    }
  });
});
