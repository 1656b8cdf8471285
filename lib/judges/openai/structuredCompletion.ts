import { APIConnectionError, APIError, APIUserAbortError, type OpenAI } from 'openai';
import type {
  ChatCompletionTokenLogprob,
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { z } from 'zod';
import { JudgeError, type JudgeFailureReason } from '../../ports/index.js';
import { fullJitterDelayInMs, retryAfterInMs, sleep } from './backoff.js';
import { estimateCost, type ModelPricing } from './pricing.js';
import { recordLlmCall } from '../../telemetry/index.js';

/** How to call the model. One retry loop covers HTTP 408/409/429/5xx, network errors and bad replies. */
export interface CompletionSettings {
  /** An `OpenAI` or `AzureOpenAI` client. Its own retries are switched off per request (`maxRetries: 0`). */
  client: OpenAI;
  pricing?: ModelPricing | undefined;
  maxRetries: number;
  retryDelayInMs: number;
  maxRetryDelayInMs: number;
  timeoutInMs: number;
  /** null: do not send a temperature (reasoning models reject anything but the default). */
  temperature: number | null;
  maxCompletionTokens?: number | undefined;
}

export interface StructuredRequest<T> {
  model: string;
  messages: ChatCompletionMessageParam[];
  schemaName: string;
  /** JSON Schema for structured outputs (strict mode: every property required, no additional properties). */
  jsonSchema: Record<string, unknown>;
  /** Validates the parsed reply; enforces what strict JSON Schema cannot (ranges). */
  replySchema: z.ZodType<T>;
  /** ask for log-probabilities with this many alternatives per token (G-Eval weighting); omitted: none */
  topLogprobs?: number;
}

export interface StructuredReply<T> {
  value: T;
  /** the model name the API reported (falls back to the requested one) */
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  attempts: number;
  notes: string[];
  /** the reply text and, when asked for and returned, its per-token log-probabilities */
  content: string;
  logprobs: ChatCompletionTokenLogprob[] | null;
}

interface Failure {
  reason: JudgeFailureReason;
  message: string;
  status?: number;
  retryable: boolean;
  waitInMs?: number;
  cause?: unknown;
}

const STATUS_HINTS: Record<number, string> = {
  400: ' (the request was rejected: check that the model supports structured outputs (json_schema) and, for reasoning models, set temperature null)',
  401: ' (check the judge credentials)',
  403: ' (check the judge credentials and their access to the model)',
  404: ' (check the model or deployment name and the base URL)',
};

const RETRYABLE_STATUS = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** The chat-completions request body this module sends (exported for tests and logging). */
export function buildRequestBody<T>(settings: CompletionSettings, request: StructuredRequest<T>): ChatCompletionCreateParamsNonStreaming {
  return {
    model: request.model,
    messages: request.messages,
    ...(settings.temperature === null ? {} : { temperature: settings.temperature }),
    ...(settings.maxCompletionTokens === undefined ? {} : { max_completion_tokens: settings.maxCompletionTokens }),
    ...(request.topLogprobs === undefined ? {} : { logprobs: true, top_logprobs: request.topLogprobs }),
    response_format: {
      type: 'json_schema',
      json_schema: { name: request.schemaName, strict: true, schema: request.jsonSchema },
    },
  };
}

/** Ask for a structured reply, validate it, retry with full-jitter backoff; throws JudgeError when it gives up. */
export async function requestStructured<T>(
  settings: CompletionSettings,
  request: StructuredRequest<T>,
  abortSignal?: AbortSignal,
): Promise<StructuredReply<T>> {
  const body = buildRequestBody(settings, request);
  let inputTokens = 0;
  let outputTokens = 0;
  let responseModel: string | undefined;
  let attempts = 0;
  let failure: Failure | undefined;
  const spent = () => {
    const { model } = request;
    const estimate = estimateCost({ model, responseModel, inputTokens, outputTokens, pricing: settings.pricing });
    const notes = estimate.note ? [estimate.note] : [];
    return { input_tokens: inputTokens, output_tokens: outputTokens, cost_usd: estimate.cost_usd, notes };
  };
  const aborted = (cause: unknown) =>
    new JudgeError(`judging was aborted after ${attempts} attempt(s)`, { reason: 'aborted', attempts, cause, ...spent() });

  for (let retry = 0; retry <= settings.maxRetries; retry++) {
    if (failure) {
      try {
        await sleep(failure.waitInMs ?? fullJitterDelayInMs(retry - 1, settings), abortSignal);
      } catch (error) {
        throw aborted(error);
      }
    }
    if (abortSignal?.aborted) throw aborted(abortSignal.reason);
    attempts++;
    let completion: ChatCompletion;
    const requested = performance.now();
    try {
      completion = await settings.client.chat.completions.create(body, {
        maxRetries: 0,
        timeout: settings.timeoutInMs,
        signal: abortSignal ?? null,
      });
    } catch (error) {
      if (error instanceof APIUserAbortError || abortSignal?.aborted) throw aborted(error);
      failure = classifyRequestError(error);
      if (!failure.retryable) break;
      continue;
    }
    inputTokens += completion.usage?.prompt_tokens ?? 0;
    outputTokens += completion.usage?.completion_tokens ?? 0;
    responseModel = completion.model || responseModel;
    recordLlmCall(
      'judge',
      request.model,
      completion.usage?.prompt_tokens ?? 0,
      completion.usage?.completion_tokens ?? 0,
      performance.now() - requested,
    );
    const parsed = parseReply(completion, request.replySchema);
    if (parsed.ok) {
      const choice = completion.choices[0]!;
      return {
        value: parsed.value,
        model: responseModel ?? request.model,
        attempts,
        ...spent(),
        content: choice.message.content ?? '',
        logprobs: choice.logprobs?.content ?? null,
      };
    }
    failure = parsed.failure;
  }

  const last = failure ?? { reason: 'invalid_output' as const, message: 'no attempt was made', retryable: false };
  throw new JudgeError(`judge model "${request.model}" gave no valid verdict after ${attempts} attempt(s): ${last.message}`, {
    reason: last.reason,
    attempts,
    ...(last.status === undefined ? {} : { status: last.status }),
    cause: last.cause,
    ...spent(),
  });
}

function classifyRequestError(error: unknown): Failure {
  if (error instanceof APIConnectionError) {
    return { reason: 'network', message: `connection failed: ${error.message}`, retryable: true, cause: error };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const retryable = RETRYABLE_STATUS(error.status);
    const waitInMs = retryable ? retryAfterInMs(error.headers) : undefined;
    return {
      reason: 'http_error',
      message: `HTTP ${error.status}: ${error.message.replace(/^\d{3}\s*/, '')}${STATUS_HINTS[error.status] ?? ''}`,
      status: error.status,
      retryable,
      ...(waitInMs === undefined ? {} : { waitInMs }),
      cause: error,
    };
  }
  throw error; // not an API failure: a bug or a broken client configuration
}

type Parsed<T> = { ok: true; value: T } | { ok: false; failure: Failure };

function parseReply<T>(completion: ChatCompletion, schema: z.ZodType<T>): Parsed<T> {
  const invalid = (message: string): Parsed<T> => ({ ok: false, failure: { reason: 'invalid_output', message, retryable: true } });
  const choice = completion.choices[0];
  if (!choice) return invalid('the reply has no choices');
  if (choice.message.refusal) {
    return { ok: false, failure: { reason: 'refused', message: `the model refused: ${choice.message.refusal}`, retryable: true } };
  }
  const content = choice.message.content;
  if (choice.finish_reason === 'length') return invalid('the reply was cut off (finish_reason "length"); raise maxCompletionTokens');
  if (!content) return invalid('the reply has no content');
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    return invalid(`the reply is not JSON: ${truncate(content, 120)}`);
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return invalid(`the reply does not match the verdict schema: ${issues}`);
  }
  return { ok: true, value: result.data };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, max))}...`;
}
