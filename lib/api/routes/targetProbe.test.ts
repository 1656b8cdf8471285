import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type Responder, type ScriptedServer } from '../../targets/testing/scriptedServer.test-helpers.js';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';
import { DEFAULT_PROBE_QUESTION } from './targetProbe.js';

let api: TestApi;
let admin: string;
let server: ScriptedServer | undefined;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalp-probe-'));
  api = await startTestApi({ AGENT_TOKEN: 'Bearer s3cret-token' });
  admin = api.keys['platform-admin'];
  await api.seedCases([{ id: 'c1', nl_query: 'Where is order 7?' }]);
}, 60_000);

afterEach(async () => {
  await server?.close();
  server = undefined;
});

afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Registers an http target at a local scripted server and returns its id. */
async function httpTarget(
  id: string,
  responder: Responder,
  overrides: { headers?: Record<string, unknown>; max_retries?: number } = {},
): Promise<string> {
  server = await startScriptedServer(responder);
  const r = await api.call('POST', 'v1/target-systems', {
    key: admin,
    body: {
      id,
      name: id,
      settings: {
        kind: 'http',
        url: `${server.origin}/agent`,
        headers: overrides.headers ?? { Authorization: { env: 'AGENT_TOKEN' } },
        response: { answer_path: '$.answer', tool_calls_path: '$.calls' },
      },
      max_retries: overrides.max_retries ?? 0,
    },
  });
  expect(r.status).toBe(201);
  return id;
}

describe('POST /target-systems/{id}/test', () => {
  it('sends the question with the resolved secret header and reports the parsed calls and answer', async () => {
    await httpTarget('good', () => ({
      body: { answer: 'Order 7 shipped.', calls: [{ name: 'get_order', arguments: { order_id: '7' } }] },
    }));
    const r = await api.call('POST', 'v1/target-systems/good/test', { key: admin, body: { question: 'Where is order 7?' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      target_id: 'good',
      question: 'Where is order 7?',
      ok: true,
      status: 'ok',
      http_status: null,
      latency_ms: expect.any(Number),
      attempts: 1,
      parsed: { calls: [{ tool_name: 'get_order', arguments: { order_id: '7' } }], answer: 'Order 7 shipped.', format: 'openai_chat' },
      output: {
        role: 'assistant',
        content: 'Order 7 shipped.',
        tool_calls: [{ type: 'function', function: { name: 'get_order', arguments: { order_id: '7' } } }],
      },
      error: null,
    });
    expect(server!.requests).toHaveLength(1);
    expect(server!.requests[0]!.body).toEqual({ question: 'Where is order 7?' });
    expect(server!.requests[0]!.headers.authorization).toBe('Bearer s3cret-token');
    expect(JSON.stringify(r.json)).not.toContain('s3cret');
  });

  it('sends a default question without a body, or a stored test case by id', async () => {
    await httpTarget('plain', () => ({ body: { answer: 'I can look up orders.' } }));
    const r = await api.call('POST', 'v1/target-systems/plain/test', { key: admin });
    expect([r.status, r.json.ok, r.json.question, r.json.parsed]).toEqual([
      200,
      true,
      DEFAULT_PROBE_QUESTION,
      { calls: [], answer: 'I can look up orders.', format: 'openai_chat' },
    ]);
    const byCase = await api.call('POST', 'v1/target-systems/plain/test', { key: admin, body: { test_case_id: 'c1' } });
    expect([byCase.json.question, server!.requests[1]!.body]).toEqual(['Where is order 7?', { question: 'Where is order 7?' }]);
    const unknown = await api.call('POST', 'v1/target-systems/plain/test', { key: admin, body: { test_case_id: 'nope' } });
    expect([unknown.status, unknown.json.errors]).toEqual([422, [{ path: 'body.test_case_id', message: 'does not exist' }]]);
  });

  it.each<[string, string, Responder, object]>([
    [
      'answers HTTP 404',
      'http404',
      () => ({ status: 404, body: { error: 'no such agent' } }),
      { status: 'target_error', http_status: 404, error: expect.stringContaining('answered HTTP 404: {"error":"no such agent"}') },
    ],
    [
      'answers 200 with HTML',
      'html',
      () => ({ headers: { 'content-type': 'text/html' }, body: '<html>oops</html>' }),
      { status: 'target_error', http_status: 200, error: expect.stringContaining('not JSON') },
    ],
    [
      'sends arguments that are not JSON',
      'badargs',
      () => ({ body: { answer: '', calls: [{ name: 'get_order', arguments: '{"order_id": ' }] } }),
      { status: 'unparseable_output', error: expect.stringMatching(/^invalid_arguments_json: /) },
    ],
  ])('a target that %s: 200 with ok false and the error', async (_why, id, responder, expected) => {
    await httpTarget(id, responder);
    const r = await api.call('POST', `v1/target-systems/${id}/test`, { key: admin, body: { question: 'q' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ok: false, ...expected });
  });

  it('a target that does not answer in time: ok false, target_timeout', async () => {
    await httpTarget('slow', () => ({ body: { answer: 'late' }, delayMs: 3_000 }));
    const r = await api.call('POST', 'v1/target-systems/slow/test', { key: admin, body: { question: 'q', timeout_ms: 300 } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ok: false, status: 'target_timeout', parsed: null, error: expect.stringContaining('300 ms') });
    expect(r.json.latency_ms).toBeGreaterThanOrEqual(250);
  });

  it('a target nobody listens on: ok false with the connection error', async () => {
    await httpTarget('down', () => ({ body: {} }));
    await server!.close();
    server = undefined;
    const r = await api.call('POST', 'v1/target-systems/down/test', { key: admin, body: { question: 'q' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ok: false, status: 'target_error', error: expect.stringContaining('ECONNREFUSED') });
  });

  it('a secret whose environment variable is not set: 422 naming the variable', async () => {
    await httpTarget('unset', () => ({ body: { answer: 'x' } }), { headers: { Authorization: { env: 'EVALP_TEST_UNSET_TOKEN' } } });
    const r = await api.call('POST', 'v1/target-systems/unset/test', { key: admin, body: {} });
    expect(r.status).toBe(422);
    expect(r.json.detail).toContain('EVALP_TEST_UNSET_TOKEN');
    expect(r.json.errors).toEqual([
      {
        path: 'target.settings.headers.Authorization',
        message: 'environment variable EVALP_TEST_UNSET_TOKEN is not set (it is referenced as a secret)',
      },
    ]);
    expect(server!.requests).toHaveLength(0);
  });

  it('a replay target answers for a recorded case id; a missing outputs file is 422 naming the setting', async () => {
    const outputs = join(dir, 'outputs.jsonl');
    await writeFile(outputs, `${JSON.stringify({ test_case_id: 'c1', output: 'get_order(order_id="7")', latency_ms: 812 })}\n`);
    await api.call('POST', 'v1/target-systems', {
      key: admin,
      body: { id: 'rec', name: 'rec', settings: { kind: 'replay', outputs_path: outputs } },
    });
    const r = await api.call('POST', 'v1/target-systems/rec/test', { key: admin, body: { test_case_id: 'c1' } });
    expect(r.json).toMatchObject({
      ok: true,
      status: 'ok',
      latency_ms: 812,
      parsed: { calls: [{ tool_name: 'get_order', arguments: { order_id: '7' } }], format: 'python_calls' },
    });
    const other = await api.call('POST', 'v1/target-systems/rec/test', { key: admin, body: {} });
    expect(other.json).toMatchObject({
      ok: false,
      status: 'target_error',
      error: expect.stringContaining('no recorded output for test case probe'),
    });
    await api.call('POST', 'v1/target-systems', {
      key: admin,
      body: { id: 'nofile', name: 'n', settings: { kind: 'replay', outputs_path: join(dir, 'missing.jsonl') } },
    });
    const missing = await api.call('POST', 'v1/target-systems/nofile/test', { key: admin, body: {} });
    expect([missing.status, missing.json.errors[0].path]).toEqual([422, 'target.settings.outputs_path']);
  });

  it('404 for an unknown target; 400 for an unknown body field', async () => {
    expect((await api.call('POST', 'v1/target-systems/none/test', { key: admin, body: {} })).status).toBe(404);
    await httpTarget('x', () => ({ body: { answer: 'x' } }));
    const r = await api.call('POST', 'v1/target-systems/x/test', { key: admin, body: { prompt: 'q' } });
    expect([r.status, r.json.errors[0].path]).toEqual([400, 'body']);
  });
});
