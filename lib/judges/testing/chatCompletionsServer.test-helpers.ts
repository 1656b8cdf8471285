import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test support: a real HTTP server on 127.0.0.1 (random port) speaking enough of the chat-completions protocol
 * for the real `openai` client. Every request is recorded; a responder script decides each answer.
 */
export interface RecordedRequest {
  method: string;
  /** path and query, e.g. `/v1/chat/completions` */
  url: string;
  headers: IncomingHttpHeaders;
  /** the parsed JSON body (undefined if none) */
  body: unknown;
}

export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** Decides the answer to the `index`-th chat-completions request (0-based). */
export type Responder = (request: RecordedRequest, index: number) => ScriptedResponse;

export interface ChatCompletionsServer {
  /** base URL for `new OpenAI({ baseURL })`, ending in `/v1` */
  baseURL: string;
  /** `http://127.0.0.1:<port>` (for Azure endpoints) */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startChatCompletionsServer(responder: Responder): Promise<ChatCompletionsServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      };
      const path = recorded.url.split('?')[0] ?? '';
      let answer: ScriptedResponse;
      if (recorded.method !== 'POST' || !path.endsWith('/chat/completions')) {
        answer = { status: 404, body: { error: { message: `no route ${recorded.method} ${path}`, type: 'not_found' } } };
      } else {
        requests.push(recorded);
        answer = responder(recorded, requests.length - 1);
      }
      const payload = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseURL: `${origin}/v1`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A successful chat completion whose message content is `content`. */
export function chatCompletion(
  content: string | null,
  options: { model?: string; promptTokens?: number; completionTokens?: number; finishReason?: string; refusal?: string } = {},
): ScriptedResponse {
  const promptTokens = options.promptTokens ?? 100;
  const completionTokens = options.completionTokens ?? 20;
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: options.model ?? 'gpt-4o-mini-2024-07-18',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: options.refusal ?? null },
          finish_reason: options.finishReason ?? 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    },
  };
}

/** An OpenAI-style error response. */
export function apiError(status: number, message: string, headers: Record<string, string> = {}): ScriptedResponse {
  return { status, headers, body: { error: { message, type: 'test_error', code: null, param: null } } };
}
