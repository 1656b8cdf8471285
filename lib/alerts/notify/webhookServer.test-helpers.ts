/** Test helper: a real HTTP server on 127.0.0.1 that records webhook posts and answers from a script. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface WebhookServer {
  url: string;
  /** parsed JSON bodies received, in order */
  received: unknown[];
  /** answers for the next requests, in order; when empty, 200 "ok" */
  script: ScriptedAnswer[];
  close(): Promise<void>;
}

export async function startWebhookServer(script: ScriptedAnswer[] = []): Promise<WebhookServer> {
  const received: unknown[] = [];
  const state = { script };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const answer = state.script.shift() ?? { status: 200, body: 'ok' };
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...(answer.headers ?? {}) });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/T000/B000/secret-token`,
    received,
    get script() {
      return state.script;
    },
    set script(s: ScriptedAnswer[]) {
      state.script = s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
