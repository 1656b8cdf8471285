import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test support: a real HTTP server on 127.0.0.1 (port 0) that records every request and answers as a script says.
 * Enough of the chat-completions protocol for the real `openai` client, and of anything for HttpTarget.
 */
export interface RecordedRequest {
  method: string;
  /** path and query */
  url: string;
  headers: IncomingHttpHeaders;
  /** the body text */
  text: string;
  /** the body parsed as JSON, or undefined */
  body: unknown;
}

export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** a string is sent as is; anything else as JSON */
  body?: unknown;
  /** answer after this many ms (timeouts) */
  delayMs?: number;
}

export type Responder = (request: RecordedRequest, index: number) => ScriptedResponse;

export interface ScriptedServer {
  origin: string;
  /** `${origin}/v1`, for `new OpenAI({ baseURL })` */
  baseURL: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startScriptedServer(responder: Responder): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? (JSON.parse(text) as unknown) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, text, body };
      requests.push(recorded);
      const answer = responder(recorded, requests.length - 1);
      const send = () => {
        timers.delete(timer);
        if (res.destroyed) return;
        const payload = typeof answer.body === 'string' ? answer.body : answer.body === undefined ? '' : JSON.stringify(answer.body);
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
        res.end(payload);
      };
      const timer = setTimeout(send, answer.delayMs ?? 0);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseURL: `${origin}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** One token of `choices[0].logprobs.content`: the token, its log-probability and the alternatives. */
export interface ScriptedTokenLogprob {
  token: string;
  logprob: number;
  top_logprobs: Array<{ token: string; logprob: number }>;
}

/** A chat completion whose first choice is `message` (with `logprobs`, as the API returns for `logprobs: true`). */
export function completion(
  message: Record<string, unknown>,
  options: {
    model?: string;
    promptTokens?: number;
    completionTokens?: number;
    finishReason?: string;
    logprobs?: ScriptedTokenLogprob[];
  } = {},
): ScriptedResponse {
  const promptTokens = options.promptTokens ?? 100;
  const completionTokens = options.completionTokens ?? 20;
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: options.model ?? 'gpt-4o-2024-08-06',
      choices: [
        {
          index: 0,
          message: { refusal: null, ...message },
          finish_reason: options.finishReason ?? 'stop',
          logprobs: options.logprobs ? { content: withBytes(options.logprobs), refusal: null } : null,
        },
      ],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    },
  };
}

/** An assistant message calling tools: `[name, argumentsObject]` pairs (arguments sent as JSON text). */
export function toolCallMessage(calls: [string, Record<string, unknown>][], idPrefix = 'call'): Record<string, unknown> {
  return {
    role: 'assistant',
    content: null,
    tool_calls: calls.map(([name, args], i) => ({
      id: `${idPrefix}_${i}`,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    })),
  };
}

/** An OpenAI-style error response. */
export function apiError(status: number, message: string, headers: Record<string, string> = {}): ScriptedResponse {
  return { status, headers, body: { error: { message, type: 'test_error', code: null, param: null } } };
}

/** The API's token entries carry UTF-8 bytes too. */
function withBytes(tokens: ScriptedTokenLogprob[]): unknown[] {
  const bytes = (t: string) => [...Buffer.from(t, 'utf8')];
  return tokens.map((t) => ({ ...t, bytes: bytes(t.token), top_logprobs: t.top_logprobs.map((a) => ({ ...a, bytes: bytes(a.token) })) }));
}

/**
 * Splits `content` into tokens as a model would stream them (each JSON punctuation, digit run and word its own
 * token) and gives each the log-probability 0 except where `alternatives` says otherwise: for the token at
 * `alternatives.at` (a character offset) the given `[token, probability]` pairs are its top_logprobs.
 */
export function tokenLogprobs(content: string, alternatives?: { at: number; top: Array<[string, number]> }): ScriptedTokenLogprob[] {
  const tokens = content.match(/\s*[A-Za-z_]+|\s*[0-9]|\s*[^A-Za-z_0-9\s]|\s+/g) ?? [];
  let offset = 0;
  return tokens.map((token) => {
    const start = offset;
    offset += token.length;
    if (alternatives && alternatives.at >= start && alternatives.at < offset) {
      const top = alternatives.top.map(([t, p]) => ({ token: t, logprob: Math.log(p) }));
      return { token, logprob: top.find((a) => a.token === token)?.logprob ?? Math.log(1e-6), top_logprobs: top };
    }
    return { token, logprob: 0, top_logprobs: [{ token, logprob: 0 }] };
  });
}
