import type { OpenAI } from 'openai';
import type { CompletionSettings } from './structuredCompletion.js';
import type { ModelPricing } from './pricing.js';

/** Options shared by the OpenAI-backed judges (Azure SDK option names). */
export interface OpenAIModelOptions {
  /** An `OpenAI` or `AzureOpenAI` client (same surface). Its own retries are disabled per request. */
  client: OpenAI;
  /** Model name (OpenAI) or deployment's model (Azure; the deployment in the client's URL wins). */
  model: string;
  /** Explicit price; otherwise looked up in MODEL_PRICING (unknown model: cost 0 and a note). */
  pricing?: ModelPricing;
  /** Retries after the first attempt, for 408/409/429/5xx, network errors and invalid replies. Default 4. */
  maxRetries?: number;
  /** Base of the exponential full-jitter backoff. Default 500 ms. */
  retryDelayInMs?: number;
  /** Ceiling of one backoff wait. Default 30 s. A `retry-after` header overrides the backoff (up to 60 s). */
  maxRetryDelayInMs?: number;
  /** Per-request timeout. Default 60 s. */
  timeoutInMs?: number;
  /**
   * Sampling temperature. Default 0, except for reasoning models (o1/o3/o4/gpt-5 names), which reject it:
   * there the default is null (not sent). Set null yourself for an Azure deployment of a reasoning model.
   */
  temperature?: number | null;
  /** Upper bound on reply tokens (reasoning models count their hidden reasoning here). Not sent by default. */
  maxCompletionTokens?: number;
}

/** Model names whose chat-completions endpoint accepts only the default temperature. */
export function isReasoningModel(model: string): boolean {
  return /^(o\d|gpt-5)/i.test(model.trim());
}

export function resolveCompletionSettings(options: OpenAIModelOptions): CompletionSettings {
  const maxRetries = options.maxRetries ?? 4;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new RangeError(`maxRetries must be a non-negative integer, got ${maxRetries}`);
  if (!options.model.trim()) throw new RangeError('model must be a non-empty model or deployment name');
  return {
    client: options.client,
    pricing: options.pricing,
    maxRetries,
    retryDelayInMs: options.retryDelayInMs ?? 500,
    maxRetryDelayInMs: options.maxRetryDelayInMs ?? 30_000,
    timeoutInMs: options.timeoutInMs ?? 60_000,
    temperature: options.temperature !== undefined ? options.temperature : isReasoningModel(options.model) ? null : 0,
    maxCompletionTokens: options.maxCompletionTokens,
  };
}
