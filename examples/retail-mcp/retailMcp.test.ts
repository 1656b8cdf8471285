import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetSystemSchema, TestCaseSchema, type McpServer, type TargetSystem, type TestCase } from '../../lib/domain/index.js';
import { parseToolCalls } from '../../lib/evaluation/syntax/index.js';
import { TargetRegistry } from '../../lib/targets/index.js';
import { EnvSecretResolver } from '../../lib/adapters/shared/index.js';
import { serveStreamableHttp, type StreamableHttpServer } from './httpTransport.js';
import { RetailApi } from './retailApi.js';
import { createRetailMcpServer } from './retailMcpServer.js';
import { startScriptedModelServer, type ScriptedModelServer } from './scriptedModelServer.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const api = new RetailApi();
const STDIO: McpServer = {
  name: 'retail',
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', SERVER],
  env: {},
  call_timeout_ms: 30_000,
  connect_timeout_ms: 60_000,
};

describe('the retail MCP server through the real MCP SDK client', () => {
  it('over stdio: lists the 14 catalog tools with their schemas and answers recorded, unknown and invalid calls', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: STDIO.transport === 'stdio' ? STDIO.args : [], stderr: 'ignore' }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(api.catalog.tools.map((t) => t.name));
      const getOrder = tools.find((t) => t.name === 'get_order')!;
      expect(getOrder.inputSchema).toMatchObject({ required: ['order_id'], properties: { order_id: { pattern: '^ORD-[0-9]{6}$' } } });
      const found = await client.callTool({ name: 'get_order', arguments: { order_id: 'ORD-104149' } });
      expect(found.isError).toBeFalsy();
      expect(found.structuredContent).toMatchObject({ order_id: 'ORD-104149', customer_id: 'CUS-10392', total: 89 });
      const missing = await client.callTool({ name: 'get_order', arguments: { order_id: 'ORD-999999' } });
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toContain('404');
      const invalid = await client.callTool({ name: 'get_order', arguments: { order_id: 'nope' } });
      expect(invalid.isError).toBe(true);
      expect(JSON.stringify(invalid.content)).toContain('pattern');
    } finally {
      await client.close();
    }
  }, 90_000);

  describe('over Streamable HTTP', () => {
    let served: StreamableHttpServer;
    beforeAll(async () => {
      served = await serveStreamableHttp(() => createRetailMcpServer(api), { token: 'mcp-secret-1' });
    });
    afterAll(async () => served.close());

    it('answers with the bearer token and refuses without it', async () => {
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { Authorization: 'Bearer mcp-secret-1' } } }),
      );
      const result = await client.callTool({ name: 'get_customer', arguments: { customer: 'CUS-10392' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ customer_id: 'CUS-10392' });
      await client.close();
      const anonymous = new Client({ name: 'test', version: '1' });
      await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(served.url)))).rejects.toThrow(
        /missing or wrong bearer token/,
      );
    });

    it('a target reaches it with a header read from a secret reference', async () => {
      const model = await startScriptedModelServer();
      const registry = new TargetRegistry({ secrets: new EnvSecretResolver({ RETAIL_MCP_TOKEN: 'mcp-secret-1' }) });
      try {
        const target = targetWith(model, 'anthropic', [
          {
            name: 'retail',
            transport: 'http',
            url: served.url,
            headers: { Authorization: { env: 'RETAIL_MCP_TOKEN_HEADER' } },
            call_timeout_ms: 10_000,
            connect_timeout_ms: 10_000,
          },
        ]);
        // the reference names a variable that is not set: a configuration error naming the server
        await expect(registry.check(target)).rejects.toThrow(/mcp_servers|RETAIL_MCP_TOKEN_HEADER/);
        const registry2 = new TargetRegistry({ secrets: new EnvSecretResolver({ RETAIL_MCP_TOKEN_HEADER: 'Bearer mcp-secret-1' }) });
        try {
          const result = await registry2.invokerFor(target).invoke(retailCase('retail-0001', 'Has order ORD-104149 shipped yet?'));
          expect(result.ok).toBe(true);
          if (result.ok) expect(result.tool_catalog?.name).toBe('mcp-retail');
        } finally {
          await registry2.close();
        }
      } finally {
        await registry.close();
        await model.close();
      }
    });
  });
});

describe('a Streamable HTTP MCP server that restarts between cases', () => {
  it('the next case fails once on the lost session, is retried on a new session, and succeeds', async () => {
    let served = await serveStreamableHttp(() => createRetailMcpServer(api));
    const port = Number(new URL(served.url).port);
    const model = await startScriptedModelServer();
    const registry = new TargetRegistry({ secrets: new EnvSecretResolver({}), retryDelayInMs: 1, maxRetryDelayInMs: 5 });
    try {
      const target = {
        ...targetWith(model, 'anthropic', [
          { name: 'retail', transport: 'http', url: served.url, headers: {}, call_timeout_ms: 10_000, connect_timeout_ms: 10_000 },
        ]),
        id: 'http-restart',
        max_retries: 2,
      };
      const invoker = registry.invokerFor(target);
      expect((await invoker.invoke(retailCase('retail-0001', 'Has order ORD-104149 shipped yet?'))).ok).toBe(true);
      await served.close();
      served = await serveStreamableHttp(() => createRetailMcpServer(api), { port });
      const after = await invoker.invoke(retailCase('retail-0002', 'Where is my order ORD-104422?'));
      expect(after.ok).toBe(true);
      expect(after.attempts).toBe(2); // the first attempt hit the lost session
      if (after.ok) expect(after.trajectory?.steps.some((s) => s.kind === 'tool_call' && s.ok)).toBe(true);
    } finally {
      await registry.close();
      await served.close();
      await model.close();
    }
  }, 60_000);
});

describe('the scripted (simulated) model server driving the retail MCP server over stdio', () => {
  let model: ScriptedModelServer;
  let registry: TargetRegistry;
  beforeAll(async () => {
    model = await startScriptedModelServer();
    registry = new TargetRegistry({ secrets: new EnvSecretResolver({}) });
  });
  afterAll(async () => {
    await registry.close();
    await model.close();
  });

  it('OpenAI protocol and Anthropic protocol: the loop runs turn by turn and a later call uses a value the earlier result returned', async () => {
    // retail-0105's generated decision calls get_order, then uses the customer_id from its result (a `$from` reference)
    const dependent = JSON.parse(
      (await import('node:fs'))
        .readFileSync(new URL('./decisions.jsonl', import.meta.url), 'utf8')
        .split('\n')
        .find((l: string) => l.includes('"$from"') && l.includes('simulated-model-a'))!,
    ) as { test_case_id: string; nl_query: string; trials: Array<{ turns: unknown[][] }> };
    for (const kind of ['openai', 'anthropic'] as const) {
      const target = targetWith(model, kind, [STDIO], kind === 'openai' ? 'simulated-model-a' : 'simulated-model-a');
      const result = await registry.invokerFor(target).invoke(retailCase(dependent.test_case_id, dependent.nl_query));
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      const steps = result.trajectory!.steps;
      expect(result.trajectory!.turns).toBe(dependent.trials[0]!.turns.length + 1);
      const calls = steps.filter((s) => s.kind === 'tool_call');
      expect(calls.every((s) => s.kind === 'tool_call' && s.ok)).toBe(true);
      // the second turn's argument is a value found in the first turn's result
      const first = JSON.stringify(calls[0]!.kind === 'tool_call' ? calls[0]!.result : null);
      const later = calls.find((s) => s.kind === 'tool_call' && s.turn > 1);
      expect(later).toBeDefined();
      if (later?.kind === 'tool_call')
        for (const value of Object.values(later.arguments ?? {}))
          if (typeof value === 'string' && !dependent.nl_query.includes(value)) expect(first).toContain(value);
      const parsed = parseToolCalls(result.output);
      expect(parsed.ok).toBe(true);
      expect(parsed.calls.length).toBe(calls.length);
    }
  }, 120_000);

  it('without tools (the baseline) the simulated model answers in text and calls nothing', async () => {
    const target = { ...targetWith(model, 'openai', [], 'simulated-model-a'), id: 'retail-baseline' };
    const result = await registry.invokerFor(target).invoke(retailCase('retail-0001', 'Has order ORD-104149 shipped yet?'));
    expect(result.ok).toBe(true);
    const parsed = result.ok ? parseToolCalls(result.output) : undefined;
    expect(parsed?.calls).toEqual([]);
    expect(parsed?.answer).toContain('no access');
  });
});

function targetWith(
  model: ScriptedModelServer,
  kind: 'openai' | 'anthropic',
  servers: McpServer[],
  name = kind === 'openai' ? 'simulated-model-a' : 'simulated-model-b',
): TargetSystem {
  return TargetSystemSchema.parse({
    id: `retail-${kind}`,
    name: `retail ${kind}`,
    settings:
      kind === 'openai' ? { kind, base_url: model.openaiBaseUrl, model: name } : { kind, base_url: model.anthropicBaseUrl, model: name },
    ...(servers.length ? { mcp_servers: servers } : {}),
    timeout_ms: 60_000,
    created_at: '2026-11-26T00:00:00Z',
    updated_at: '2026-11-26T00:00:00Z',
  });
}

function retailCase(id: string, nl: string): TestCase {
  return TestCaseSchema.parse({ id, nl_query: nl, expected_tool_calls: [] });
}
