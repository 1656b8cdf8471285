export interface BackoffOptions {
  /** base delay of the first retry (default 500 ms); doubles per retry */
  retryDelayInMs?: number;
  /** ceiling of one backoff delay (default 10 s) */
  maxRetryDelayInMs?: number;
}

export interface RetryOptions extends BackoffOptions {
  /** retries after the first attempt (0: one attempt only) */
  maxRetries: number;
  /** longest server-requested wait (Retry-After) honoured; longer ones are clamped (default 60 s) */
  maxRetryAfterInMs?: number;
  /** cancels the waits between attempts (rejects with the signal's reason) */
  abortSignal?: AbortSignal;
  /** uniform [0, 1) source, injectable for tests (default Math.random) */
  random?: () => number;
  /** injectable sleep for tests (default: an abortable timer) */
  sleep?: (ms: number, abortSignal?: AbortSignal) => Promise<void>;
}

/** `false`: keep this result. Otherwise retry, waiting at least `retryAfterInMs` when the server asked for it. */
export type RetryDecision = false | { retryAfterInMs?: number | undefined };

export interface RetryOutcome<T> {
  value: T;
  /** attempts made, the first included */
  attempts: number;
}

export const DEFAULT_RETRY_DELAY_IN_MS = 500;
export const DEFAULT_MAX_RETRY_DELAY_IN_MS = 10_000;
export const DEFAULT_MAX_RETRY_AFTER_IN_MS = 60_000;

/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): a uniform draw
 * in [0, min(maxRetryDelayInMs, retryDelayInMs * 2^retry)). `retry` counts from 0 for the first retry.
 */
export function backoffDelayInMs(retry: number, options: BackoffOptions = {}, random: () => number = Math.random): number {
  const base = options.retryDelayInMs ?? DEFAULT_RETRY_DELAY_IN_MS;
  const cap = options.maxRetryDelayInMs ?? DEFAULT_MAX_RETRY_DELAY_IN_MS;
  return Math.floor(random() * Math.min(cap, base * 2 ** retry));
}

/** The wait before retry number `retry`: the jittered backoff, but never less than the (clamped) Retry-After. */
export function retryWaitInMs(retry: number, decision: { retryAfterInMs?: number | undefined }, options: RetryOptions): number {
  const jitter = backoffDelayInMs(retry, options, options.random);
  if (decision.retryAfterInMs === undefined) return jitter;
  const asked = Math.min(decision.retryAfterInMs, options.maxRetryAfterInMs ?? DEFAULT_MAX_RETRY_AFTER_IN_MS);
  return Math.max(asked, jitter);
}

/**
 * Runs `operation` until `shouldRetry` keeps its result or `maxRetries` retries are spent; returns the last result.
 * Retries results, not exceptions: an operation that throws (a bug, broken configuration, the caller's abort)
 * ends the loop with that exception. The waits are abortable.
 */
export async function retry<T>(
  operation: (attempt: number) => Promise<T>,
  shouldRetry: (result: T, attempt: number) => RetryDecision,
  options: RetryOptions,
): Promise<RetryOutcome<T>> {
  const sleep = options.sleep ?? abortableSleep;
  for (let attempt = 1; ; attempt++) {
    options.abortSignal?.throwIfAborted();
    const value = await operation(attempt);
    const decision = attempt > options.maxRetries ? false : shouldRetry(value, attempt);
    if (decision === false) return { value, attempts: attempt };
    await sleep(retryWaitInMs(attempt - 1, decision, options), options.abortSignal);
  }
}

/** Waits `ms`; rejects with the signal's own reason (not a generic AbortError) as soon as it aborts. */
export function abortableSleep(ms: number, abortSignal?: AbortSignal): Promise<void> {
  if (abortSignal?.aborted) return Promise.reject(abortSignal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortSignal?.reason);
    };
    const timer = setTimeout(() => {
      abortSignal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    abortSignal?.addEventListener('abort', onAbort, { once: true });
  });
}
