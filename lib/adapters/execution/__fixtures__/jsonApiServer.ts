import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the test server saw it. */
export interface SeenRequest {
  method: string;
  /** the decoded path */
  path: string;
  /** the raw path and query, as sent */
  rawUrl: string;
  query: Record<string, string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Handler = (request: SeenRequest, response: ServerResponse) => void;

export interface JsonApiServer {
  baseUrl: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1, on a free port, for tests. `close` drops hanging connections; idempotent. */
export async function startJsonApiServer(handler: Handler): Promise<JsonApiServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const query: Record<string, string[]> = {};
      for (const [key, value] of url.searchParams) (query[key] ??= []).push(value);
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: decodeURIComponent(url.pathname),
        rawUrl: req.url ?? '',
        query,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      handler(seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      })),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
