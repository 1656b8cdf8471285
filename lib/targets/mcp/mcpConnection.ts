import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer, SecretRef } from '../../domain/index.js';
import type { SecretResolver } from '../../ports/index.js';
import { describeError } from '../errors.js';
import { McpServerUnavailableError } from './mcpErrors.js';

export interface McpCallResult {
  /** the server's `isError` flag: the tool ran and reported a failure (the model's to handle) */
  isError: boolean;
  /** `structuredContent` when given, else the text content parsed as JSON when it is JSON, else the text */
  data: unknown;
  /** the text content, joined */
  text: string;
}

export interface McpConnectionOptions {
  secrets: SecretResolver;
  /** client name and version sent in `initialize` */
  clientInfo?: { name: string; version: string };
  /** where a stdio server's stderr goes (default: ignored, the last 2 KiB are kept for error messages) */
  onStderr?: (server: string, chunk: string) => void;
}

interface Live {
  client: Client;
  transport: Transport;
  /** set when the transport closed: the next use starts the server again */
  closed: boolean;
  tools: Promise<Tool[]> | undefined;
}

const STDERR_TAIL = 2048;

/**
 * One MCP server as the platform sees it: started (stdio: the process spawned) on first use, reused by every call
 * after, started again on the next use after it died (a crash, an exit, a broken connection), stopped by `close`.
 * Calls that find it dead, or that it does not answer within `call_timeout_ms`, throw McpServerUnavailableError.
 */
export class McpConnection {
  private live: Promise<Live> | undefined;
  private stderrTail = '';
  private closing = false;
  /** it started once: a later failure to start is a crash loop, not a broken configuration */
  private started = false;
  /** how many times the server was started (1 = never restarted) */
  starts = 0;
  /** the stdio server's current process id, when running */
  pid: number | null = null;

  constructor(
    readonly server: McpServer,
    private readonly options: McpConnectionOptions,
  ) {}

  /** The server's tools (listed once per start, and again after `notifications/tools/list_changed`). */
  async listTools(): Promise<Tool[]> {
    const live = await this.connection();
    if (!live.tools) {
      const listing = this.listAll(live);
      live.tools = listing;
      listing.catch(() => {
        if (live.tools === listing) live.tools = undefined;
      });
    }
    return live.tools;
  }

  /** `meta`: the request's `_meta` (e.g. the conversation's session key, MCP_SESSION_META_KEY) */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    abortSignal?: AbortSignal,
    meta?: Record<string, string>,
  ): Promise<McpCallResult> {
    const live = await this.connection();
    try {
      const result = await live.client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }, undefined, {
        timeout: this.server.call_timeout_ms,
        ...(abortSignal ? { signal: abortSignal } : {}),
      });
      return readResult(result);
    } catch (error) {
      if (abortSignal?.aborted) throw abortSignal.reason;
      throw this.unavailable(error, live, `tool ${name}`);
    }
  }

  /** Stops the server (stdio: the process is terminated) and keeps it stopped. */
  async close(): Promise<void> {
    this.closing = true;
    const live = this.live;
    this.live = undefined;
    if (!live) return;
    try {
      const l = await live;
      l.closed = true;
      await l.client.close();
    } catch {
      // it never started, or is already gone
    }
    this.pid = null;
  }

  private connection(): Promise<Live> {
    if (this.closing)
      return Promise.reject(new McpServerUnavailableError(this.server.name, 'target_error', `MCP server ${this.server.name} is shut down`));
    const current = this.live;
    if (current) {
      return current.then((l) => (l.closed ? this.restart(current) : l));
    }
    return this.restart(undefined);
  }

  private restart(previous: Promise<Live> | undefined): Promise<Live> {
    if (this.live !== previous) return this.connection(); // another caller restarted it already
    const starting = this.start();
    this.live = starting;
    starting.catch(() => {
      if (this.live === starting) this.live = undefined;
    });
    return starting;
  }

  private async start(): Promise<Live> {
    this.starts++;
    this.stderrTail = '';
    const transport = await this.transport();
    const client = new Client(this.options.clientInfo ?? { name: 'evalplatform', version: '0.1.0' });
    const live: Live = { client, transport, closed: false, tools: undefined };
    client.onclose = () => {
      live.closed = true;
      this.pid = null;
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      live.tools = undefined;
    });
    try {
      await client.connect(transport, { timeout: this.server.connect_timeout_ms });
    } catch (error) {
      live.closed = true;
      await client.close().catch(() => undefined);
      throw new McpServerUnavailableError(
        this.server.name,
        'target_error',
        `MCP server ${this.server.name} did not start: ${describeError(error)}${this.stderrNote()}`,
        {
          cause: error,
          neverStarted: !this.started,
        },
      );
    }
    if (transport instanceof StdioClientTransport) this.pid = transport.pid;
    this.started = true;
    return live;
  }

  private async transport(): Promise<Transport> {
    const server = this.server;
    if (server.transport === 'stdio') {
      const env: Record<string, string> = { ...getDefaultEnvironment() };
      for (const [key, value] of Object.entries(server.env)) env[key] = await this.secret(value, `env.${key}`);
      const transport = new StdioClientTransport({
        command: server.command,
        args: server.args,
        env,
        stderr: 'pipe',
        ...(server.cwd ? { cwd: server.cwd } : {}),
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
        this.options.onStderr?.(server.name, text);
      });
      return transport;
    }
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(server.headers)) headers[key] = await this.secret(value, `headers.${key}`);
    return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
  }

  private async secret(value: string | SecretRef, field: string): Promise<string> {
    if (typeof value === 'string') return value;
    try {
      return await this.options.secrets.resolve(value);
    } catch (error) {
      throw new McpServerUnavailableError(
        this.server.name,
        'target_error',
        `MCP server ${this.server.name}: ${field}: ${describeError(error)}`,
        { cause: error, neverStarted: true },
      );
    }
  }

  private async listAll(live: Live): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await live.client.listTools(cursor ? { cursor } : undefined, { timeout: this.server.connect_timeout_ms });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
    } catch (error) {
      throw this.unavailable(error, live, 'tools/list');
    }
    return tools;
  }

  private unavailable(error: unknown, live: Live, what: string): McpServerUnavailableError {
    const name = this.server.name;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new McpServerUnavailableError(
        name,
        'target_timeout',
        `MCP server ${name} did not answer ${what} within ${this.server.call_timeout_ms} ms`,
        { cause: error },
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) live.closed = true;
    // over HTTP a failed request (server restarted, session expired, network) leaves no process to watch: start a new
    // session on the next call rather than reusing one that may be gone
    if (this.server.transport === 'http' && !(error instanceof McpError && error.code !== ErrorCode.ConnectionClosed)) {
      live.closed = true;
      void live.client.close().catch(() => undefined);
    }
    const state = live.closed ? ' (the server exited or the connection closed; it is restarted on the next call)' : '';
    return new McpServerUnavailableError(
      name,
      'target_error',
      `MCP server ${name} failed on ${what}: ${describeError(error)}${state}${this.stderrNote()}`,
      { cause: error },
    );
  }

  private stderrNote(): string {
    const tail = this.stderrTail.trim();
    return tail ? ` [stderr: ${tail.slice(-300)}]` : '';
  }
}

function readResult(result: Record<string, unknown>): McpCallResult {
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  const text = content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n');
  let data: unknown = text;
  if (result.structuredContent !== undefined) data = result.structuredContent;
  else if (text !== '') {
    try {
      data = JSON.parse(text) as unknown;
    } catch {
      data = text;
    }
  } else if (result.toolResult !== undefined) data = result.toolResult;
  return { isError: result.isError === true, data, text };
}
