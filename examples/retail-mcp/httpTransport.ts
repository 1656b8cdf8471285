import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export interface StreamableHttpServer {
  /** the MCP endpoint, `http://127.0.0.1:<port>/mcp` */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP at `/mcp` on 127.0.0.1: one session (a fresh McpServer and transport) per
 * `initialize`, addressed by the `mcp-session-id` header after. With `token`, every request needs
 * `Authorization: Bearer <token>` (401 otherwise), so a client's secret-referenced headers are exercised.
 */
export async function serveStreamableHttp(
  makeServer: () => McpServer,
  options: { port?: number; token?: string } = {},
): Promise<StreamableHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!req.url?.startsWith('/mcp')) return void res.writeHead(404).end();
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      return void res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'missing or wrong bearer token' }));
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res, req.method === 'POST' ? await readJson(req) : undefined);
    if (req.method !== 'POST') return void res.writeHead(400).end('no session');
    const body = await readJson(req);
    if (!isInitializeRequest(body)) {
      return void res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no valid session id' }, id: null }));
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await makeServer().connect(transport);
    await transport.handleRequest(req, res, body);
  }
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    server: http,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}
