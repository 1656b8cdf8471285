import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import { describeError } from '../errors.js';
import { isRetryableStatus, retryAfterInMs } from '../../resilience/index.js';
import { elapsedMs, type TargetFailure } from '../../ports/index.js';

const STATUS_HINTS: Record<number, string> = {
  401: ' (check settings.api_key and settings.api_key_header)',
  403: ' (check settings.api_key and its access to the model)',
  404: ' (check settings.model, the deployment name on Azure AI Foundry, and settings.base_url)',
};

/**
 * The failure a thrown Messages API error stands for; rethrows the caller's abort reason instead. 408/429/5xx
 * (529 overloaded included, Retry-After honoured), connection errors and client timeouts are retryable.
 */
export function failureFromAnthropicError(
  error: unknown,
  context: { abortSignal?: AbortSignal | undefined; started: number; model: string },
): TargetFailure {
  if (context.abortSignal?.aborted) throw context.abortSignal.reason;
  const failure = (message: string, extra: Partial<TargetFailure> = {}): TargetFailure => ({
    ok: false,
    error_code: 'target_error',
    message,
    latency_ms: elapsedMs(context.started),
    attempts: 1,
    retryable: false,
    ...extra,
  });
  if (error instanceof APIConnectionTimeoutError)
    return failure(`model "${context.model}" did not answer in time (client timeout)`, { error_code: 'target_timeout', retryable: true });
  if (error instanceof APIConnectionError)
    return failure(`connection to the Messages endpoint failed: ${describeError(error.cause ?? error)}`, { retryable: true });
  if (error instanceof APIError && typeof error.status === 'number') {
    const retryable = isRetryableStatus(error.status);
    const wait = retryable && error.headers ? retryAfterInMs(error.headers) : undefined;
    const detail = error.message.replace(/^\d{3}\s*/, '');
    return failure(`model "${context.model}" answered HTTP ${error.status}: ${detail}${STATUS_HINTS[error.status] ?? ''}`, {
      retryable,
      http_status: error.status,
      ...(wait === undefined ? {} : { retry_after_ms: wait }),
    });
  }
  if (error instanceof SyntaxError) return failure(`the Messages endpoint answered with invalid JSON: ${error.message}`);
  return failure(`the Messages request failed: ${describeError(error)}`);
}
