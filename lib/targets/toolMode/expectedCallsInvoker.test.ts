import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runServices } from '../../app/perRunServices.js';
import {
  EvaluationConfigSchema,
  TargetSystemSchema,
  TestCaseSchema,
  type McpServer,
  type Run,
  type TargetSystem,
  type TestCase,
} from '../../domain/index.js';
import { runExecutionStage } from '../../evaluation/execution/index.js';
import { parseToolCalls } from '../../evaluation/syntax/index.js';
import { sampleRun } from '../../ports/contracts/fixtures.js';
import { EnvSecretResolver } from '../../adapters/shared/envSecretResolver.js';
import { TargetConfigurationError } from '../errors.js';
import { TargetRegistry } from '../targetRegistry.js';
import { targetNeedsToolExecutor } from '../toolLoop/needsTools.js';

const FLAKY = fileURLToPath(new URL('../mcp/testing/flakyMcpServer.mjs', import.meta.url));
let dir: string | undefined;
let registry: TargetRegistry | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function toolTarget(servers: McpServer[] = []): TargetSystem {
  return TargetSystemSchema.parse({
    id: 'tools-only',
    name: 'the tools themselves',
    // the model settings are never used in tool mode
    settings: { kind: 'openai', model: 'unused', base_url: 'http://127.0.0.1:9/v1' },
    eval_mode: 'tool',
    ...(servers.length ? { mcp_servers: servers } : {}),
    created_at: '2026-11-26T00:00:00Z',
    updated_at: '2026-11-26T00:00:00Z',
  });
}

const CASE: TestCase = TestCaseSchema.parse({
  id: 't1',
  nl_query: 'Look up a and b',
  expected_tool_calls: [
    { tool_name: 'lookup', arguments: { id: { $one_of: ['a', 'A'] } } },
    { tool_name: 'crash_once', arguments: { id: 'b' } },
  ],
  expected_raw_data: [
    { id: 'a', value: 'value of a' },
    { id: 'b', value: 'value of b' },
  ],
});

describe("eval_mode 'tool': no model, the tools are called with the expected arguments and their data checked", () => {
  it('answers with the expected calls (matchers resolved) and needs no tool executor', async () => {
    registry = new TargetRegistry({ secrets: new EnvSecretResolver({}) });
    const target = toolTarget();
    expect(targetNeedsToolExecutor(target)).toBe(false);
    const result = await registry.invokerFor(target).invoke(CASE);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect([result.input_tokens, result.cost_usd, result.tool_catalog]).toEqual([0, 0, undefined]);
    const parsed = parseToolCalls(result.output);
    expect(parsed.ok && parsed.calls.map((c) => [c.tool_name, c.arguments])).toEqual([
      ['lookup', { id: 'a' }],
      ['crash_once', { id: 'b' }],
    ]);
  });

  it('on MCP servers: stage 1 gets the servers\' catalog, stage 3 ("mcp" provider) calls them and compares the data; a crashed server is "could not score", not a 0', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tool-mode-'));
    const server: McpServer = {
      name: 'flaky',
      transport: 'stdio',
      command: process.execPath,
      args: [FLAKY],
      env: { FLAKY_MCP_MARKER: join(dir, 'crashed') },
      call_timeout_ms: 5_000,
      connect_timeout_ms: 20_000,
    };
    registry = new TargetRegistry({ secrets: new EnvSecretResolver({}) });
    const target = toolTarget([server]);
    const result = await registry.invokerFor(target).invoke(CASE);
    expect(result.ok && result.tool_catalog?.tools.map((t) => t.name)).toEqual(['lookup', 'crash_once', 'hang']);
    const services = runServices({ targets: registry, baseDir: dir, env: {}, azureADTokenProvider: async () => 'unused' });
    const run: Run = sampleRun('r1', { config: EvaluationConfigSchema.parse({ execution: { enabled: true, provider: 'mcp' } }) });
    await expect(services.apiProviderFor(run, undefined, { ...target, mcp_servers: undefined })).rejects.toThrow(
      /needs a target with mcp_servers/,
    );
    const provider = await services.apiProviderFor(run, undefined, target);
    const calls = [
      { tool_name: 'lookup', arguments: { id: 'a' } },
      { tool_name: 'crash_once', arguments: { id: 'b' } },
    ];
    const assignment = [
      { expected_index: 0, actual_index: 0 },
      { expected_index: 1, actual_index: 1 },
    ];
    // the first crash_once call kills the server: the stage cannot score (error, score null), it does not blame the call
    const first = await runExecutionStage(calls, CASE, assignment, { provider });
    expect(first.result).toMatchObject({ status: 'error', score: null });
    // the server is restarted on the next call; the data matches
    const second = await runExecutionStage(calls, CASE, assignment, { provider });
    expect(second.result).toMatchObject({ status: 'passed', passed: true, score: 1 });
    // a tool whose data differs from the gold is a data mismatch
    const wrong = TestCaseSchema.parse({
      ...CASE,
      expected_raw_data: [
        { id: 'a', value: 'something else' },
        { id: 'b', value: 'value of b' },
      ],
    });
    const third = await runExecutionStage(calls, wrong, assignment, { provider });
    expect(third.result).toMatchObject({ status: 'failed', error_code: 'data_mismatch' });
  });

  it("eval_mode 'mcp' without MCP servers is a configuration error naming eval_mode", async () => {
    registry = new TargetRegistry({ secrets: new EnvSecretResolver({}) });
    const target = TargetSystemSchema.parse({ ...toolTarget(), eval_mode: 'mcp' });
    const error = await registry.check(target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetConfigurationError);
    expect((error as TargetConfigurationError).setting).toBe('eval_mode');
  });
});

describe('tool mode and data flow', () => {
  it('a `$from` argument is sent as what its source call should return (its expected_raw_data), not null', async () => {
    const { ExpectedCallsInvoker } = await import('./expectedCallsInvoker.js');
    const chained = (data?: unknown[]) =>
      TestCaseSchema.parse({
        id: 'chain',
        nl_query: 'Orders of ann@example.com',
        expected_tool_calls: [
          { tool_name: 'find_customer', arguments: { email: 'ann@example.com' } },
          { tool_name: 'list_orders', arguments: { customer_id: { $from: { call: 'find_customer', path: '/customer_id' } }, limit: 5 } },
        ],
        ...(data ? { expected_raw_data: data } : {}),
      });
    const argsOf = async (tc: TestCase) => {
      const out = await new ExpectedCallsInvoker('tools', 'openai').invoke(tc);
      if (!out.ok) throw new Error(out.message);
      return parseToolCalls(out.output).calls.map((c) => c.arguments);
    };
    expect(await argsOf(chained([{ customer_id: 'CUS-1001', name: 'Ann Lee' }, { orders: [] }]))).toEqual([
      { email: 'ann@example.com' },
      { customer_id: 'CUS-1001', limit: 5 },
    ]);
    // without the source's expected data there is nothing to send: null, which stage 2 then reports
    expect((await argsOf(chained()))[1]).toEqual({ customer_id: null, limit: 5 });
  });
});
