import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TargetSystemSchema, TestCaseSchema, type McpServer, type TargetSystem, type TestCase } from '../../domain/index.js';
import { anthropicError, message, text, toolUse } from '../anthropic/anthropicMessages.test-helpers.js';
import { EnvSecretResolver } from '../../adapters/shared/envSecretResolver.js';
import { TargetConfigurationError } from '../errors.js';
import { TargetRegistry } from '../targetRegistry.js';
import { startScriptedServer, type RecordedRequest, type Responder, type ScriptedServer } from '../testing/scriptedServer.test-helpers.js';

const FLAKY = fileURLToPath(new URL('./testing/flakyMcpServer.mjs', import.meta.url));
let dir: string;
let model: ScriptedServer | undefined;
let registry: TargetRegistry | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-target-'));
});
afterEach(async () => {
  await registry?.close();
  await model?.close();
  registry = undefined;
  model = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The scripted model: "<tool> <id>" questions call that tool once, then answer with the result's text. */
const agent: Responder = (request) => {
  const body = request.body as { messages: Array<{ role: string; content: unknown }> };
  const last = body.messages[body.messages.length - 1]!;
  if (typeof last.content === 'string') {
    const [tool, id] = last.content.split(' ');
    return message([text(`Calling ${tool}.`), toolUse(`toolu_${tool}`, tool!, tool === 'hang' ? {} : { id })]);
  }
  const result = (last.content as Array<{ content: string; is_error?: boolean }>)[0]!;
  return message([text(result.is_error ? `The tool failed: ${result.content}` : `Found: ${result.content}`)]);
};

function flaky(overrides: Partial<Extract<McpServer, { transport: 'stdio' }>> = {}, env: Record<string, string> = {}): McpServer {
  return {
    name: 'flaky',
    transport: 'stdio',
    command: process.execPath,
    args: [FLAKY],
    env: { FLAKY_MCP_MARKER: join(dir, 'crashed'), FLAKY_MCP_LOG: join(dir, 'calls.jsonl'), ...env },
    call_timeout_ms: 5_000,
    connect_timeout_ms: 20_000,
    ...overrides,
  };
}

async function claudeWithMcp(servers: McpServer[], options: { maxRetries?: number; responder?: Responder } = {}): Promise<TargetSystem> {
  model = await startScriptedServer(options.responder ?? agent);
  registry = new TargetRegistry({ secrets: new EnvSecretResolver({}), retryDelayInMs: 1, maxRetryDelayInMs: 5 });
  return TargetSystemSchema.parse({
    id: 'claude-mcp',
    name: 'Claude over MCP',
    settings: { kind: 'anthropic', base_url: model.origin, model: 'simulated-model-b' },
    mcp_servers: servers,
    client_type: 'claude-mcp',
    max_retries: options.maxRetries ?? 2,
    timeout_ms: 20_000,
    created_at: '2026-11-26T00:00:00Z',
    updated_at: '2026-11-26T00:00:00Z',
  });
}

function question(id: string, nl: string): TestCase {
  return TestCaseSchema.parse({ id, nl_query: nl, expected_tool_calls: [] });
}

function callLog(): Array<{ pid: number; tool: string; id: string }> {
  const file = join(dir, 'calls.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { pid: number; tool: string; id: string });
}

function toolNamesSent(request: RecordedRequest): string[] {
  return ((request.body as { tools?: Array<{ name: string }> }).tools ?? []).map((t) => t.name);
}

describe('MCP servers as tool sources (a real stdio MCP server, the real Anthropic SDK client)', () => {
  it('offers the server tools to the model, runs its calls on the server, returns the catalog snapshot, and reuses one process across cases', async () => {
    const target = await claudeWithMcp([flaky()]);
    const invoker = registry!.invokerFor(target);
    const results = [];
    for (const id of ['a', 'b', 'c']) results.push(await invoker.invoke(question(id, `lookup ${id}`)));
    for (const result of results) expect(result.ok).toBe(true);
    const first = results[0]!;
    if (!first.ok) return;
    expect(toolNamesSent(model!.requests[0]!)).toEqual(['lookup', 'crash_once', 'hang']);
    expect(first.tool_catalog?.name).toBe('mcp-flaky');
    expect(first.tool_catalog?.tool_schema_version).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(first.tool_catalog?.tools.map((t) => t.name)).toEqual(['lookup', 'crash_once', 'hang']);
    expect(first.api_calls_made).toBe(1);
    const step = first.trajectory?.steps.find((s) => s.kind === 'tool_call');
    expect(step).toMatchObject({ tool_name: 'lookup', executed: true, ok: true, result: { id: 'a', value: 'value of a' } });
    // the model saw the result the server returned
    expect(JSON.stringify(model!.requests[1]!.body)).toContain('value of a');
    const pids = new Set(callLog().map((c) => c.pid));
    expect(pids.size).toBe(1);
    expect(registry!.mcp.all()[0]!.starts).toBe(1);
  });

  it("a tool's own error (isError) goes back to the model as a tool error: the invocation succeeds", async () => {
    const target = await claudeWithMcp([flaky()]);
    const result = await registry!.invokerFor(target).invoke(question('m', 'lookup missing-7'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.trajectory?.steps.find((s) => s.kind === 'tool_call')).toMatchObject({ executed: true, ok: false, status: 400 });
    expect(JSON.stringify(model!.requests[1]!.body)).toContain('"is_error":true');
  });

  it('a server that crashes mid-run is restarted and the case retried: every case answered once, none lost or duplicated', async () => {
    const target = await claudeWithMcp([flaky()]);
    const invoker = registry!.invokerFor(target);
    const cases = [question('a', 'lookup a'), question('b', 'crash_once b'), question('c', 'lookup c')];
    const results = [];
    for (const tc of cases) results.push(await invoker.invoke(tc));
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    const crashed = results[1]!;
    expect(crashed.attempts).toBe(2); // the first attempt died with the server
    if (crashed.ok) {
      const calls = crashed.trajectory?.steps.filter((s) => s.kind === 'tool_call') ?? [];
      expect(calls).toHaveLength(1); // the successful attempt's trajectory only
      expect(calls[0]).toMatchObject({ tool_name: 'crash_once', ok: true, result: { id: 'b', value: 'value of b' } });
    }
    const log = callLog();
    expect(log.map((c) => `${c.tool}:${c.id}`)).toEqual(['lookup:a', 'crash_once:b', 'crash_once:b', 'lookup:c']);
    expect(log[1]!.pid).not.toBe(log[2]!.pid); // a new process served the retry
    expect(log[2]!.pid).toBe(log[3]!.pid); // and the cases after it
    expect(registry!.mcp.all()[0]!.starts).toBe(2);
  });

  it('a hung server call times out as a target timeout (never a model failure); the server keeps serving other cases', async () => {
    const target = await claudeWithMcp([flaky({ call_timeout_ms: 300 })], { maxRetries: 0 });
    const invoker = registry!.invokerFor(target);
    const hung = await invoker.invoke(question('h', 'hang'));
    expect(hung.ok).toBe(false);
    if (hung.ok) return;
    expect(hung.error_code).toBe('target_timeout');
    expect(hung.retryable).toBe(true);
    expect(hung.message).toContain('did not answer tool hang within 300 ms');
    const after = await invoker.invoke(question('a', 'lookup a'));
    expect(after.ok).toBe(true);
  });

  it('a model request failure (429 then success) is retried with the same server', async () => {
    let calls = 0;
    const responder: Responder = (request, index) =>
      index === 0 && calls++ === 0 ? anthropicError(429, 'busy', { 'retry-after-ms': '5' }) : agent(request, index);
    const target = await claudeWithMcp([flaky()], { responder });
    const result = await registry!.invokerFor(target).invoke(question('a', 'lookup a'));
    expect(result.ok).toBe(true);
    expect(result.attempts).toBe(2);
  });

  it('a server that will not start is a configuration error naming mcp_servers.<name>', async () => {
    const target = await claudeWithMcp([flaky({ name: 'broken', command: process.execPath, args: ['-e', 'process.exit(1)'] })]);
    const error = await registry!.check(target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetConfigurationError);
    expect((error as TargetConfigurationError).setting).toBe('mcp_servers.broken');
    expect((error as Error).message).toContain('did not start');
  });

  it('the catalog version is a content hash: the same tool list gives the same version, a changed list another', async () => {
    const target = await claudeWithMcp([flaky()]);
    const v1a = await registry!.invokerFor(target).invoke(question('a', 'lookup a'));
    const other = TargetSystemSchema.parse({ ...target, id: 'other', mcp_servers: [flaky({}, { FLAKY_MCP_TOOLS_VERSION: '2' })] });
    const v2 = await registry!.invokerFor(other).invoke(question('a', 'lookup a'));
    const again = TargetSystemSchema.parse({
      ...target,
      id: 'again',
      mcp_servers: [flaky({}, { FLAKY_MCP_LOG: join(dir, 'other.jsonl') })],
    });
    const v1b = await registry!.invokerFor(again).invoke(question('a', 'lookup a'));
    const version = (r: typeof v1a) => (r.ok ? r.tool_catalog?.tool_schema_version : undefined);
    expect(version(v1a)).toBeDefined();
    expect(version(v1b)).toBe(version(v1a));
    expect(version(v2)).not.toBe(version(v1a));
  });

  it('close() stops the processes it spawned', async () => {
    const target = await claudeWithMcp([flaky()]);
    await registry!.invokerFor(target).invoke(question('a', 'lookup a'));
    const pid = registry!.mcp.all()[0]!.pid!;
    expect(() => process.kill(pid, 0)).not.toThrow();
    await registry!.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
