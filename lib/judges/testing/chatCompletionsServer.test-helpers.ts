import {
  startScriptedServer,
  completion,
  type RecordedRequest,
  type ScriptedResponse,
  type ScriptedTokenLogprob,
} from '../../targets/testing/scriptedServer.test-helpers.js';

export {
  apiError,
  tokenLogprobs,
  type RecordedRequest,
  type ScriptedResponse,
  type ScriptedTokenLogprob,
} from '../../targets/testing/scriptedServer.test-helpers.js';

/**
 * Test support: the targets' scripted server (a real HTTP server on 127.0.0.1) narrowed to the chat-completions
 * route the judges call: other routes answer 404 and are not recorded, and the responder's index counts
 * chat-completions requests only.
 */
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
  const server = await startScriptedServer((request) => {
    const path = request.url.split('?')[0] ?? '';
    if (request.method !== 'POST' || !path.endsWith('/chat/completions')) {
      return { status: 404, body: { error: { message: `no route ${request.method} ${path}`, type: 'not_found' } } };
    }
    requests.push(request);
    return responder(request, requests.length - 1);
  });
  return { baseURL: server.baseURL, origin: server.origin, requests, close: () => server.close() };
}

/** A successful chat completion whose message content is `content`. */
export function chatCompletion(
  content: string | null,
  options: {
    model?: string;
    promptTokens?: number;
    completionTokens?: number;
    finishReason?: string;
    refusal?: string;
    logprobs?: ScriptedTokenLogprob[];
  } = {},
): ScriptedResponse {
  const { refusal, ...rest } = options;
  return completion({ role: 'assistant', content, refusal: refusal ?? null }, { model: 'gpt-4o-mini-2024-07-18', ...rest });
}
