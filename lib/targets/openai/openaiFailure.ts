import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { describeError } from '../errors.js';
import { isRetryableStatus, retryAfterInMs } from '../../resilience/index.js';
import { elapsedMs, type TargetFailure } from '../../ports/index.js';

const STATUS_HINTS: Record<number, string> = {
  401: ' (check settings.api_key)',
  403: ' (check settings.api_key and its access to the model)',
  404: ' (check settings.model, the deployment name on Azure, and settings.base_url)',
};

/**
 * The failure a thrown request error stands for. Rethrows the caller's abort reason (cancellation, or the
 * ResilientTarget timeout) instead. HTTP 408/429/5xx, connection errors and timeouts are retryable; other
 * statuses and unreadable answers are not.
 */
export function failureFromRequestError(
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
  if (error instanceof APIConnectionTimeoutError) {
    return failure(`model "${context.model}" did not answer in time (client timeout)`, { error_code: 'target_timeout', retryable: true });
  }
  if (error instanceof APIConnectionError) {
    // the outbound policy refused the destination (after DNS or on a redirect): retrying cannot help
    const refused = error.cause instanceof Error && error.cause.name === 'OutboundRefusedError';
    return failure(`connection to the chat-completions endpoint failed: ${describeError(error.cause ?? error)}`, { retryable: !refused });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const retryable = isRetryableStatus(error.status);
    const wait = retryable ? retryAfterInMs(error.headers) : undefined;
    const detail = error.message.replace(/^\d{3}\s*/, '');
    return failure(`model "${context.model}" answered HTTP ${error.status}: ${detail}${STATUS_HINTS[error.status] ?? ''}`, {
      retryable,
      http_status: error.status,
      ...(wait === undefined ? {} : { retry_after_ms: wait }),
    });
  }
  if (error instanceof SyntaxError) return failure(`the chat-completions endpoint answered with invalid JSON: ${error.message}`);
  return failure(`the chat-completions request failed: ${describeError(error)}`);
}
