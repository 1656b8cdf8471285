/**
 * Agents over MCP in real platform runs: the retail MCP server (examples/retail-mcp, spawned over stdio by the
 * platform) driven by the scripted (simulated) model over the OpenAI and the Anthropic protocol, started as a
 * baseline-vs-enhanced pair with trials; trajectories on the scorecards, the tool-list snapshot stored and noted,
 * the pairwise comparison; a pair whose MCP server will not start is refused whole.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer, SIMULATED_JUDGE, type ScriptedModelServer } from '../../examples/retail-mcp/scriptedModelServer.js';
import { TargetSystemSchema, TestCaseSchema, TestSuiteSchema, type Run, type Scorecard } from '../domain/index.js';
import { message, text, toolUse } from '../targets/anthropic/anthropicMessages.test-helpers.js';
import { startScriptedServer, type Responder, type ScriptedServer } from '../targets/testing/scriptedServer.test-helpers.js';
import type { RunPairComparison } from '../domain/pairComparison.js';
import { createApiKey } from '../api/index.js';
import { silentLogger } from '../host/index.js';
import { loadRetailSample } from './demo.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';

const RETAIL = fileURLToPath(new URL('../../examples/retail', import.meta.url));
const SERVER = fileURLToPath(new URL('../../examples/retail-mcp/server.ts', import.meta.url));
const CASES = ['retail-0001', 'retail-0002', 'retail-0003', 'retail-0004'];
const FLAKY = fileURLToPath(new URL('../targets/mcp/testing/flakyMcpServer.mjs', import.meta.url));

/** A scripted Claude for the flaky server: "<tool> <id>" calls that tool once, then answers with the result. */
const flakyAgent: Responder = (request) => {
  const body = request.body as { messages: Array<{ role: string; content: unknown }> };
  const last = body.messages[body.messages.length - 1]!;
  if (typeof last.content === 'string') {
    const [tool, id] = last.content.split(' ');
    return message([toolUse(`toolu_${tool}`, tool!, { id })]);
  }
  return message([text(`Found: ${(last.content as Array<{ content: string }>)[0]!.content}`)]);
};
let flakyModel: ScriptedServer;

let platform: EmbeddedPlatform;
let model: ScriptedModelServer;
let dataDir: string;
let key: string;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function waitFor(runId: string, timeoutMs = 120_000): Promise<Run & { trial_stats?: { pass_at_1: number; pass_hat_k: number } }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { json } = await api('GET', `v1/runs/${runId}`);
    if (['completed', 'failed', 'cancelled', 'timed_out'].includes(json.status)) return json;
    if (Date.now() > until) throw new Error(`run ${runId} still ${json.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function putTarget(fields: Record<string, unknown>): Promise<void> {
  const now = platform.services.clock.now().toISOString();
  await platform.services.stores.targets.upsert(TargetSystemSchema.parse({ ...fields, created_at: now, updated_at: now }));
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-mcp-run-'));
  model = await startScriptedModelServer();
  platform = await startEmbeddedPlatform({
    dataDir,
    port: 0,
    logger: silentLogger,
    baseDir: RETAIL,
    env: { ...process.env, OPENAI_BASE_URL: model.openaiBaseUrl, OPENAI_API_KEY: 'simulated' },
  });
  const { stores, apiKeys, clock } = platform.services;
  await loadRetailSample(platform.services, RETAIL);
  const now = clock.now().toISOString();
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'retail-4',
      name: 'four retail cases',
      kind: 'static',
      test_case_ids: CASES,
      created_at: now,
      updated_at: now,
    }),
  );
  const retail = {
    name: 'retail',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', SERVER],
    connect_timeout_ms: 60_000,
  };
  await putTarget({
    id: 'claude-mcp',
    name: 'claude mcp',
    client_type: 'claude-mcp',
    eval_mode: 'mcp',
    settings: {
      kind: 'anthropic',
      base_url: model.anthropicBaseUrl,
      model: 'simulated-model-b',
      pricing: { input_per_mtok: 3, output_per_mtok: 15 },
    },
    mcp_servers: [retail],
    timeout_ms: 60_000,
  });
  await putTarget({
    id: 'no-tools',
    name: 'no tools',
    settings: { kind: 'openai', base_url: model.openaiBaseUrl, model: 'simulated-model-b' },
  });
  await putTarget({
    id: 'broken-mcp',
    name: 'broken',
    settings: { kind: 'anthropic', base_url: model.anthropicBaseUrl, model: 'simulated-model-b' },
    mcp_servers: [{ name: 'gone', transport: 'stdio', command: '/nonexistent/mcp-server' }],
  });
  flakyModel = await startScriptedServer(flakyAgent);
  const flakyCases = ['a', 'b', 'c'].map((id) =>
    TestCaseSchema.parse({
      id: `flaky-${id}`,
      nl_query: `${id === 'b' ? 'crash_once' : 'lookup'} ${id}`,
      expected_tool_calls: [{ tool_name: id === 'b' ? 'crash_once' : 'lookup', arguments: { id } }],
    }),
  );
  await stores.testCases.upsertTestCases(flakyCases);
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'flaky',
      name: 'a server that crashes once',
      kind: 'static',
      test_case_ids: flakyCases.map((c) => c.id),
      created_at: now,
      updated_at: now,
    }),
  );
  const flakyServer = {
    name: 'flaky',
    transport: 'stdio',
    command: process.execPath,
    args: [FLAKY],
    env: { FLAKY_MCP_MARKER: join(dataDir, 'crashed'), FLAKY_MCP_LOG: join(dataDir, 'calls.jsonl') },
  };
  await putTarget({
    id: 'flaky-mcp',
    name: 'flaky',
    settings: { kind: 'anthropic', base_url: flakyModel.origin, model: 'scripted' },
    mcp_servers: [flakyServer],
    max_retries: 2,
  });
  key = (await createApiKey(apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, clock)).key;
}, 120_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await model?.close();
  await flakyModel?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('agents over MCP in platform runs', () => {
  it('a baseline-vs-enhanced pair with trials: trajectories from the MCP server on the scorecards, the tool list snapshotted and noted, the pairwise comparison', async () => {
    const config = {
      trials: 2,
      execution: { enabled: true, provider: 'recorded', cassette_path: 'cassette.jsonl' },
      semantics: { enabled: true, judge: 'local' },
    };
    const created = await api('POST', 'v1/run-pairs', {
      pair_id: 'p1',
      suite_id: 'retail-4',
      baseline_target_id: 'no-tools',
      enhanced_target_id: 'claude-mcp',
      config,
    });
    expect(created.status).toBe(202);
    expect(created.json).toEqual({ pair_id: 'p1', baseline_run_id: 'p1.baseline', enhanced_run_id: 'p1.enhanced' });
    const [baseline, enhanced] = [await waitFor('p1.baseline'), await waitFor('p1.enhanced')];
    expect([baseline.status, enhanced.status, enhanced.error]).toEqual(['completed', 'completed', null]);
    expect(enhanced.trigger_metadata).toMatchObject({ pair_id: 'p1', pair_role: 'enhanced' });

    const cards = (await api('GET', 'v1/runs/p1.enhanced/scorecards?limit=50')).json.items as Scorecard[];
    expect(cards).toHaveLength(CASES.length * 2);
    expect(new Set(cards.map((c) => `${c.test_case_id}:${c.trial ?? 1}`)).size).toBe(8);
    const first = cards.find((c) => c.test_case_id === 'retail-0001' && (c.trial ?? 1) === 1)!;
    expect(first.trajectory?.stop).toBe('answered');
    expect(first.trajectory?.steps.find((s) => s.kind === 'tool_call')).toMatchObject({
      tool_name: 'get_order',
      executed: true,
      ok: true,
      result: { order_id: 'ORD-104149' },
    });
    expect(first.generated_nl_response).toContain('ORD-104149');
    expect(first.client_version).toBe('simulated-model-b');

    // the MCP tool list the model saw: stored as a catalog and noted on the run
    const note = enhanced.notes.find((n) => n.startsWith('tool catalog snapshot: mcp-retail@sha256:'));
    expect(note).toBeDefined();
    const stored = await platform.services.stores.catalogs.get(note!.slice('tool catalog snapshot: '.length));
    expect(stored?.tools).toHaveLength(14);

    const pair = (await api('GET', `v1/run-pairs/p1?judge_model=${SIMULATED_JUDGE}`)).json as RunPairComparison;
    expect(pair.baseline).toMatchObject({ run_id: 'p1.baseline', scorecards: 8, calls_per_case: 0 });
    expect(pair.enhanced.scorecards).toBe(8);
    expect(pair.enhanced.calls_per_case).toBeGreaterThan(0);
    expect(pair.pairwise?.judged).toBe(8);
    expect(pair.pairwise!.enhanced_wins + pair.pairwise!.ties + pair.pairwise!.baseline_wins).toBe(8);
    expect(pair.pairwise?.judge_model).toBe(SIMULATED_JUDGE);
    expect(enhanced.trial_stats?.pass_at_1).toBeCloseTo(pair.enhanced.pass_rate.estimate!, 9);
  }, 180_000);

  it('an MCP server that crashes mid-run is restarted and the case retried: every case scored once, none lost or duplicated', async () => {
    const created = await api('POST', 'v1/runs', { suite_id: 'flaky', target_id: 'flaky-mcp' });
    expect(created.status).toBe(202);
    const run = await waitFor(created.json.id);
    expect([run.status, run.error]).toEqual(['completed', null]);
    const cards = (await api('GET', `v1/runs/${run.id}/scorecards?limit=10`)).json.items as Scorecard[];
    expect(cards.map((c) => c.test_case_id).sort()).toEqual(['flaky-a', 'flaky-b', 'flaky-c']);
    expect(cards.every((c) => c.overall_passed && c.error_code === undefined)).toBe(true);
    const crashed = cards.find((c) => c.test_case_id === 'flaky-b')!;
    expect(crashed.trajectory?.steps.filter((s) => s.kind === 'tool_call')).toHaveLength(1);
    expect(crashed.generated_nl_response).toContain('value of b');
    // the server process died on the first crash_once call; the retry ran on a new process
    const calls = readFileSync(join(dataDir, 'calls.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { pid: number; tool: string; id: string });
    const crashes = calls.filter((c) => c.tool === 'crash_once');
    expect(crashes).toHaveLength(2);
    expect(crashes[0]!.pid).not.toBe(crashes[1]!.pid);
  }, 120_000);

  it('a pair whose MCP server will not start is refused with 422 naming the server, and neither run starts', async () => {
    const refused = await api('POST', 'v1/run-pairs', {
      pair_id: 'p2',
      suite_id: 'retail-4',
      baseline_target_id: 'no-tools',
      enhanced_target_id: 'broken-mcp',
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.json.errors)).toContain('mcp_servers.gone');
    expect(await platform.services.stores.runs.getRun('p2.baseline')).toBeUndefined();
    expect(await platform.services.stores.runs.getRun('p2.enhanced')).toBeUndefined();
    expect((await api('GET', 'v1/run-pairs/p2')).status).toBe(404);
  });
});
