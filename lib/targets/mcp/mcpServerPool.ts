import type { McpServer } from '../../domain/index.js';
import { McpConnection, type McpConnectionOptions } from './mcpConnection.js';

/**
 * The MCP servers of one process (one worker): one connection per distinct server definition, shared by every
 * target, run and case that names it, so a stdio server is spawned once and reused across cases. `close` stops them
 * all (the host calls it at shutdown).
 */
export class McpServerPool {
  private readonly connections = new Map<string, McpConnection>();
  private closed = false;

  constructor(private readonly options: McpConnectionOptions) {}

  connectionFor(server: McpServer): McpConnection {
    const key = JSON.stringify(server);
    let connection = this.connections.get(key);
    if (!connection || this.closed) {
      connection = new McpConnection(server, this.options);
      if (!this.closed) this.connections.set(key, connection);
    }
    return connection;
  }

  /** Every connection made so far (telemetry, tests). */
  all(): McpConnection[] {
    return [...this.connections.values()];
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
