import { randomUUID } from 'node:crypto';
import type { JsonValue, McpServer, ToolCall, ToolCatalog } from '../../domain/index.js';
import type { ApiProvider, ApiResponse, ExecuteContext } from '../../ports/index.js';
import { TargetConfigurationError } from '../errors.js';
import { catalogFromMcpTools } from './mcpCatalog.js';
import type { McpConnection } from './mcpConnection.js';
import { McpServerUnavailableError } from './mcpErrors.js';
import type { McpServerPool } from './mcpServerPool.js';

/** What the model is offered for one invocation: the catalog snapshot and the executor of its calls. */
export interface McpSnapshot {
  catalog: ToolCatalog;
  executor: ApiProvider;
}

/**
 * The tools of a target's MCP servers. `snapshot()` lists them (from the servers' cached lists: a server lists its
 * tools once per start and again when it says they changed) and returns the catalog the model is offered plus an
 * ApiProvider (kind `mcp`) that executes each call on the server owning the tool. A tool the server reports as failed
 * (`isError`) is an ordinary tool error for the model to handle (`execution_failed`); a server that is down, crashed
 * or hung throws McpServerUnavailableError (an infrastructure fault: the target fails the invocation, retryably).
 */
export class McpToolSource {
  private readonly connections: Array<{ server: McpServer; connection: McpConnection }>;
  private last: { key: string; snapshot: McpSnapshot } | undefined;

  constructor(
    readonly targetId: string,
    servers: readonly McpServer[],
    pool: McpServerPool,
  ) {
    this.connections = servers.map((server) => ({ server, connection: pool.connectionFor(server) }));
  }

  async snapshot(): Promise<McpSnapshot> {
    const lists = await Promise.all(
      this.connections.map(async ({ server, connection }) => ({ name: server.name, tools: await connection.listTools(), connection })),
    );
    const routes = new Map<string, McpConnection>();
    for (const list of lists) {
      for (const tool of list.tools) {
        if (routes.has(tool.name)) {
          throw new TargetConfigurationError(
            'mcp_servers',
            `target ${this.targetId}: tool "${tool.name}" is offered by more than one of its MCP servers`,
          );
        }
        routes.set(tool.name, list.connection);
      }
    }
    let catalog: ToolCatalog;
    try {
      catalog = catalogFromMcpTools(lists);
    } catch (error) {
      throw new TargetConfigurationError('mcp_servers', `target ${this.targetId}: ${(error as Error).message}`);
    }
    const key = catalog.tool_schema_version;
    if (this.last?.key === key) return this.last.snapshot; // same list: same catalog object (invokers are cached by it)
    const snapshot: McpSnapshot = { catalog, executor: new McpExecutor(routes) };
    this.last = { key, snapshot };
    return snapshot;
  }
}

/**
 * The `_meta` key naming the conversation a tool call belongs to. A server may key per-conversation state by it (the
 * retail example server serving an environment starts a fresh instance per key); others ignore it. One server process
 * (stdio) or connection (HTTP) serves every case of a worker, so without it all cases would share one state.
 */
export const MCP_SESSION_META_KEY = 'evalplatform/session';

class McpExecutor implements ApiProvider {
  readonly kind = 'mcp' as const;

  constructor(
    private readonly routes: ReadonlyMap<string, McpConnection>,
    /** the conversation's key, sent as `_meta[MCP_SESSION_META_KEY]` with every call; none outside a session */
    private readonly session?: string,
  ) {}

  /** One conversation (a case invocation, all turns of a conversation case): its calls carry one fresh session key. */
  openSession(): ApiProvider {
    return this.session ? this : new McpExecutor(this.routes, randomUUID());
  }

  async execute(call: ToolCall, context: ExecuteContext): Promise<ApiResponse> {
    const started = performance.now();
    const connection = this.routes.get(call.tool_name);
    if (!connection) {
      return {
        ok: false,
        errorCode: 'execution_failed',
        status: 404,
        message: `no MCP server offers a tool named ${call.tool_name}`,
        durationMs: ms(started),
      };
    }
    const meta = this.session ? { [MCP_SESSION_META_KEY]: this.session } : undefined;
    const result = await connection.callTool(call.tool_name, call.arguments, context.abortSignal, meta);
    if (result.isError) {
      return {
        ok: false,
        errorCode: 'execution_failed',
        status: 400,
        message: result.text || `tool ${call.tool_name} failed`,
        durationMs: ms(started),
      };
    }
    return { ok: true, status: 200, data: toJson(result.data), durationMs: ms(started) };
  }
}

function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

function ms(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

export { McpServerUnavailableError };
