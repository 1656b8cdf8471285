import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetSystemSchema, ToolCatalogSchema, type TargetSystem } from '../domain/index.js';
import { ExpectedDataProvider } from '../evaluation/execution/index.js';
import { createTargetInvoker, RESILIENCE_BY_KIND } from './createTargetInvoker.js';
import { EnvSecretResolver } from '../adapters/shared/envSecretResolver.js';
import { TargetConfigurationError } from './errors.js';
import { HttpTarget } from './http/httpTarget.js';
import { OpenAITarget } from './openai/openaiTarget.js';
import { ReplayOutputsCache } from './replay/replayOutputsCache.js';
import { ReplayTarget } from './replay/replayTarget.js';
import { ResilientTarget } from '../resilience/resilientTarget.js';
import { McpServerPool } from './mcp/mcpServerPool.js';
import { TargetRegistry } from './targetRegistry.js';
import { testCase } from './testing/testCases.test-helpers.js';
import { completion, startScriptedServer, type ScriptedServer } from './testing/scriptedServer.test-helpers.js';

let dir: string;
let server: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'target-registry-'));
  writeFileSync(join(dir, 'outputs.jsonl'), `${JSON.stringify({ test_case_id: 'tc-1', output: 'recorded' })}\n`);
  server = await startScriptedServer((req) =>
    req.url.endsWith('/chat/completions') ? completion({ role: 'assistant', content: 'from openai' }) : { status: 500, body: 'down' },
  );
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
});

const secrets = new EnvSecretResolver({ KEY: 'k' });
const NOW = '2025-06-01T00:00:00Z';

function target(id: string, settings: unknown, extra: Record<string, unknown> = {}): TargetSystem {
  return TargetSystemSchema.parse({ id, name: id, settings, created_at: NOW, updated_at: NOW, ...extra });
}
const replay = (id = 'rec') => target(id, { kind: 'replay', outputs_path: 'outputs.jsonl' });
const openai = (id = 'gpt') => target(id, { kind: 'openai', model: 'gpt-4o', base_url: server.baseURL, api_key: { env: 'KEY' } });
const http = (id = 'agent', extra: Record<string, unknown> = {}) =>
  target(id, { kind: 'http', url: `${server.origin}/agent` }, { max_retries: 0, ...extra });

describe('createTargetInvoker (exhaustive factory)', () => {
  it.each([
    ['replay', replay, ReplayTarget, 'recorded'],
    ['openai', openai, OpenAITarget, { role: 'assistant', content: 'from openai', refusal: null }],
    ['http', http, HttpTarget, undefined],
  ] as const)('builds a %s invoker that answers', async (kind, make, type, output) => {
    const invoker = await createTargetInvoker(make(), { secrets, baseDir: dir, replayCache: new ReplayOutputsCache() });
    expect(invoker).toBeInstanceOf(type);
    expect([invoker.kind, invoker.targetId]).toEqual([kind, make().id]);
    const result = await invoker.invoke(testCase('tc-1'));
    if (output === undefined) expect(result).toMatchObject({ ok: false, http_status: 500 });
    else expect(result).toMatchObject({ ok: true, output });
  });

  it.each([
    ['replay without its file', target('r', { kind: 'replay', outputs_path: 'missing.jsonl' }), 'settings.outputs_path'],
    [
      'openai with an unset key',
      target('o', { kind: 'openai', model: 'm', base_url: 'http://127.0.0.1:1/v1', api_key: { env: 'UNSET' } }),
      'settings.api_key',
    ],
    [
      'http with a Key Vault header',
      target('h', { kind: 'http', url: 'http://127.0.0.1:1/a', headers: { 'x-key': { keyvault: 'agent-key' } } }),
      'settings.headers.x-key',
    ],
    [
      'anthropic with an unset key',
      target('a', { kind: 'anthropic', model: 'm', base_url: 'http://127.0.0.1:1', api_key: { env: 'UNSET' } }),
      'settings.api_key',
    ],
    [
      'an MCP server that will not start',
      target(
        'm',
        { kind: 'anthropic', model: 'm', base_url: 'http://127.0.0.1:1' },
        { mcp_servers: [{ name: 'gone', transport: 'stdio', command: '/nonexistent/mcp-server' }] },
      ),
      'mcp_servers.gone',
    ],
  ])('checks the configuration up front: %s', async (_label, system, setting) => {
    const error = await createTargetInvoker(system, { secrets, baseDir: dir, mcpPool: new McpServerPool({ secrets }) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TargetConfigurationError);
    expect(error).toMatchObject({ setting });
  });

  it('wraps every kind but replay in resilience', () => {
    expect(RESILIENCE_BY_KIND).toEqual({ replay: false, openai: true, http: true, anthropic: true });
  });
});

describe('TargetRegistry', () => {
  let registry: TargetRegistry;

  it('answers at once with an invoker that wraps network targets in ResilientTarget, not replay', async () => {
    registry = new TargetRegistry({ secrets, baseDir: dir });
    expect(await registry.invokerFor(http()).ready()).toBeInstanceOf(ResilientTarget);
    expect(await registry.invokerFor(openai()).ready()).toBeInstanceOf(ResilientTarget);
    expect(await registry.invokerFor(replay()).ready()).toBeInstanceOf(ReplayTarget);
    const lazy = registry.invokerFor(http('lazy'));
    expect([lazy.targetId, lazy.kind]).toEqual(['lazy', 'http']);
  });

  it('caches invokers by target, updated_at, catalog and provider identity', async () => {
    registry = new TargetRegistry({ secrets, baseDir: dir });
    const catalog = ToolCatalogSchema.parse({ name: 'c', tool_schema_version: '1', tools: [] });
    const a = registry.invokerFor(openai(), { catalog });
    expect(registry.invokerFor(openai(), { catalog })).toBe(a);
    expect(registry.invokerFor(openai(), { catalog: { ...catalog } })).not.toBe(a);
    expect(registry.invokerFor(openai(), { catalog, apiProvider: new ExpectedDataProvider() })).not.toBe(a);
    expect(registry.invokerFor({ ...openai(), updated_at: '2025-06-02T00:00:00Z' }, { catalog })).not.toBe(a);
  });

  it('shares ONE breaker per target id across invokers: failures through one open it for all', async () => {
    registry = new TargetRegistry({ secrets, retryDelayInMs: 1 });
    const before = server.requests.length;
    const viaRunA = registry.invokerFor(http('shared'));
    const viaRunB = registry.invokerFor(http('shared'), { apiProvider: new ExpectedDataProvider() });
    expect(viaRunB).not.toBe(viaRunA);
    for (let i = 0; i < 5; i++) await (i % 2 ? viaRunA : viaRunB).invoke(testCase(`tc-${i}`));
    expect(registry.breakerFor('shared').state).toBe('open');
    expect(await viaRunA.invoke(testCase('tc-x'))).toMatchObject({ ok: false, circuit_open: true });
    expect(await viaRunB.invoke(testCase('tc-y'))).toMatchObject({ ok: false, circuit_open: true });
    expect(server.requests.length - before).toBe(5);
    expect(registry.breakerFor('other').state).toBe('closed');
  });

  it('keeps the breaker across edits and rebuilds the limiter only when rate_limit changes', async () => {
    const transitions: string[] = [];
    registry = new TargetRegistry({
      secrets,
      onCircuitStateChange: (id, state, previous) => transitions.push(`${id}:${previous}->${state}`),
      breaker: { failureThreshold: 1 },
    });
    const first = http('edited');
    await registry.invokerFor(first).invoke(testCase('tc'));
    const breaker = registry.breakerFor('edited');
    const limiter = registry.limiterFor(first);
    const edited = { ...first, updated_at: '2025-07-01T00:00:00Z' };
    await registry.check(edited);
    expect(registry.breakerFor('edited')).toBe(breaker);
    expect(registry.limiterFor(edited)).toBe(limiter);
    expect(registry.limiterFor({ ...edited, rate_limit: { requests_per_second: 5, max_in_flight: 2 } })).not.toBe(limiter);
    expect(transitions).toEqual(['edited:closed->open']);
    expect(registry.snapshot()).toEqual([
      {
        target_id: 'edited',
        circuit: { state: 'open', consecutive_failures: 1, retry_in_ms: expect.any(Number) },
        limiter: { in_flight: 0, queued: 0, tokens: expect.any(Number) },
      },
    ]);
  });

  it('throws a configuration error from check() and invoke(), keeps no failed build, and works once fixed', async () => {
    const env: Record<string, string> = {};
    registry = new TargetRegistry({ secrets: new EnvSecretResolver(env) });
    const system = target('late', { kind: 'openai', model: 'm', base_url: server.baseURL, api_key: { env: 'LATE' } });
    await expect(registry.check(system)).rejects.toBeInstanceOf(TargetConfigurationError);
    await expect(registry.invokerFor(system).invoke(testCase('tc'))).rejects.toMatchObject({ setting: 'settings.api_key' });
    env.LATE = 'set';
    expect(await registry.invokerFor(system).invoke(testCase('tc'))).toMatchObject({ ok: true });
  });

  it('drops the least recently used invoker beyond maxCachedInvokers', async () => {
    registry = new TargetRegistry({ secrets, maxCachedInvokers: 2 });
    const a = registry.invokerFor(http('a'));
    const b = registry.invokerFor(http('b'));
    expect(registry.invokerFor(http('a'))).toBe(a); // a is now the most recent
    registry.invokerFor(http('c')); // evicts b
    expect(registry.invokerFor(http('a'))).toBe(a);
    expect(registry.invokerFor(http('b'))).not.toBe(b);
  });
});
