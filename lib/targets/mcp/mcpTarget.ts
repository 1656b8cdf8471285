import type { TargetKind, TestCase, ToolCatalog } from '../../domain/index.js';
import { type ApiProvider, elapsedMs, type InvokeOptions, type TargetInvocation, type TargetInvoker } from '../../ports/index.js';
import { TargetConfigurationError } from '../errors.js';
import { McpServerUnavailableError } from './mcpErrors.js';
import type { McpToolSource } from './mcpToolSource.js';

/** Builds the model invoker (openai, anthropic) for one tool list: its catalog offered, its calls run by `executor`. */
export type ModelInvokerFactory = (catalog: ToolCatalog, executor: ApiProvider) => Promise<TargetInvoker>;

/**
 * A model target whose tools come from MCP servers. Each invocation takes the servers' current tool list (a
 * versioned catalog snapshot), runs the model's tool loop with the calls executed on the servers, and returns the
 * snapshot with the answer (`tool_catalog`), so stage 1 validates against exactly what the model saw. A changed
 * list (a new version) gets its own model invoker. A server that crashed, hung or broke its connection fails the
 * invocation as a retryable target failure (`target_timeout` for a hang): the retry runs the case again on the
 * restarted server, and the model is never scored on an infrastructure fault. A server that will not start at
 * all is a configuration error (`mcp_servers.<name>`): no retry can fix it.
 */
export class McpToolTarget implements TargetInvoker {
  private readonly invokers = new Map<string, Promise<TargetInvoker>>();

  constructor(
    readonly targetId: string,
    readonly kind: TargetKind,
    private readonly source: McpToolSource,
    private readonly build: ModelInvokerFactory,
  ) {}

  /** Starts the servers and lists their tools now, so one that will not start fails at start-up. */
  async ready(): Promise<void> {
    try {
      const snapshot = await this.source.snapshot();
      await this.invokerFor(snapshot.catalog, snapshot.executor);
    } catch (error) {
      throw this.configurationError(error);
    }
  }

  async invoke(testCase: TestCase, options: InvokeOptions = {}): Promise<TargetInvocation> {
    options.abortSignal?.throwIfAborted();
    const started = performance.now();
    try {
      const snapshot = await this.source.snapshot();
      const invoker = await this.invokerFor(snapshot.catalog, snapshot.executor);
      const invocation = await invoker.invoke(testCase, options);
      return invocation.ok ? { ...invocation, tool_catalog: snapshot.catalog } : invocation;
    } catch (error) {
      if (options.abortSignal?.aborted) throw options.abortSignal.reason;
      if (!(error instanceof McpServerUnavailableError)) throw error;
      if (error.neverStarted) throw this.configurationError(error);
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

  private invokerFor(catalog: ToolCatalog, executor: ApiProvider): Promise<TargetInvoker> {
    const key = catalog.tool_schema_version;
    let invoker = this.invokers.get(key);
    if (!invoker) {
      invoker = this.build(catalog, executor);
      this.invokers.set(key, invoker);
      invoker.catch(() => this.invokers.delete(key));
    }
    return invoker;
  }

  private configurationError(error: unknown): unknown {
    if (error instanceof McpServerUnavailableError)
      return new TargetConfigurationError(`mcp_servers.${error.server}`, `target ${this.targetId}: ${error.message}`, { cause: error });
    return error;
  }
}
