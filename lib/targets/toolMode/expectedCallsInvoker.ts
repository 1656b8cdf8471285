import type { TargetKind, TestCase, ToolCatalog } from '../../domain/index.js';
import { expectedArguments } from './expectedArguments.js';
import type { McpToolSource } from '../mcp/mcpToolSource.js';
import { McpServerUnavailableError } from '../mcp/mcpErrors.js';
import { elapsedMs, type InvokeOptions, type TargetInvocation, type TargetInvoker } from '../../ports/index.js';

/**
 * `eval_mode: 'tool'`: no model. Each case "answers" with exactly its expected calls (the arguments resolved to a
 * plain value each matcher accepts: `representativeValue`; a `$from` to what its source call's `expected_raw_data`
 * says it returns, `expectedArguments`), as an OpenAI-style assistant message, so stage 3 calls the
 * tools themselves (the live API, a cassette, or the target's MCP servers with `execution.provider: "mcp"`) and checks
 * the data they return against `expected_raw_data`: this tests the tools, not a model. With MCP servers the answer also
 * carries the servers' catalog snapshot, so stage 1 validates the expected arguments against the schemas the servers
 * publish (a tool renamed or a schema tightened on the server fails there). Tokens and cost are 0.
 */
export class ExpectedCallsInvoker implements TargetInvoker {
  constructor(
    readonly targetId: string,
    readonly kind: TargetKind,
    private readonly mcp?: McpToolSource,
  ) {}

  /** With MCP servers: starts them and lists their tools now (a server that will not start fails at start-up). */
  async ready(): Promise<ToolCatalog | undefined> {
    return (await this.mcp?.snapshot())?.catalog;
  }

  async invoke(testCase: TestCase, options: InvokeOptions = {}): Promise<TargetInvocation> {
    options.abortSignal?.throwIfAborted();
    const started = performance.now();
    let catalog: ToolCatalog | undefined;
    if (this.mcp) {
      try {
        catalog = (await this.mcp.snapshot()).catalog;
      } catch (error) {
        if (!(error instanceof McpServerUnavailableError)) throw error;
        return {
          ok: false,
          error_code: error.errorCode,
          message: `target ${this.targetId}: ${error.message}`,
          latency_ms: elapsedMs(started),
          attempts: 1,
          retryable: true,
        };
      }
    }
    const toolCalls = testCase.expected_tool_calls.map((call, i) => ({
      id: `expected_${i}`,
      type: 'function',
      function: { name: call.tool_name, arguments: JSON.stringify(expectedArguments(testCase, i)) },
    }));
    return {
      ok: true,
      output: { role: 'assistant', content: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
      latency_ms: elapsedMs(started),
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      client_version: 'expected-calls',
      api_calls_made: 0,
      attempts: 1,
      ...(catalog ? { tool_catalog: catalog } : {}),
    };
  }
}
