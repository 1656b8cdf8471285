import type { TestCase } from '../domain/index.js';
import {
  elapsedMs,
  type InvokeOptions,
  isRetryableFailure,
  type TargetFailure,
  type TargetInvocation,
  type TargetInvoker,
} from '../ports/index.js';
import type { CircuitBreaker, CircuitPermit } from './circuitBreaker.js';
import type { RateLimiter } from './rateLimiter.js';
import { retry, type BackoffOptions } from './retry.js';
import { TimeoutError, withTimeout } from './withTimeout.js';

export interface ResilientTargetOptions extends BackoffOptions {
  /** per attempt (an agentic conversation is one attempt) */
  timeoutInMs: number;
  /** retries after the first attempt, for retryable failures only */
  maxRetries: number;
  /** longest Retry-After honoured (default 60 s) */
  maxRetryAfterInMs?: number;
  /** shared per target id (TargetRegistry); none: no breaker */
  breaker?: CircuitBreaker;
  /** shared per target id (TargetRegistry); none: no limit */
  limiter?: RateLimiter;
  random?: () => number;
  sleep?: (ms: number, abortSignal?: AbortSignal) => Promise<void>;
}

/**
 * Decorates an invoker with, per attempt: the circuit breaker (refuses fast while open), the rate limiter (waits
 * for a token and an in-flight slot), and the timeout (target_timeout); around the attempts, retries with
 * exponential backoff and full jitter for retryable failures (timeouts, network errors, 408/429/5xx, honouring
 * Retry-After). One invocation (the case's attempts and retries) feeds the breaker ONE outcome: its success, or
 * one failure when its last attempt failed (a flaky case cannot open the circuit alone). A refused attempt is not
 * retried; when it follows a failed attempt of the same case, its message keeps that attempt's cause.
 * Never throws for a target failure; rethrows the caller's abort reason and TargetConfigurationError.
 * `attempts` counts requests that reached the target; `latency_ms` is the successful attempt's own latency, or for
 * a failure the wall time of the whole invocation.
 */
export class ResilientTarget implements TargetInvoker {
  readonly targetId: string;
  readonly kind: TargetInvoker['kind'];

  constructor(
    readonly inner: TargetInvoker,
    private readonly options: ResilientTargetOptions,
  ) {
    this.targetId = inner.targetId;
    this.kind = inner.kind;
  }

  async invoke(testCase: TestCase, options: InvokeOptions = {}): Promise<TargetInvocation> {
    const started = performance.now();
    let made = 0;
    // one invocation (a case's attempts and retries) is ONE outcome for the breaker: a failed attempt's permit is
    // held until we know whether a retry follows (then it is cancelled) or it was the last (then it is a failure)
    let held: CircuitPermit | undefined;
    let lastFailure: TargetFailure | undefined;
    const attempt = async (): Promise<TargetInvocation> => {
      held?.cancel();
      held = undefined;
      const { result, permit } = await this.attempt(testCase, options);
      if (!(result.ok === false && result.circuit_open)) made++;
      if (result.ok) permit?.success();
      else if (result.circuit_open) {
        // refused by a circuit another case opened: keep the real cause of this case's earlier attempt
        return result; // the caller below reports this case's own earlier failure as the cause
      } else {
        held = permit;
        lastFailure = result;
      }
      return result;
    };
    let value: TargetInvocation;
    try {
      ({ value } = await retry(
        attempt,
        (result) => (!result.ok && isRetryableFailure(result) ? { retryAfterInMs: result.retry_after_ms } : false),
        {
          ...this.options,
          ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        },
      ));
    } catch (error) {
      held?.cancel();
      throw error;
    }
    held?.failure();
    if (value.ok) return { ...value, attempts: made };
    // a retry the open breaker refused: the cause is the failure of the attempt that was made (a timeout, say),
    // not the refusal; both are reported, and circuit_open stays set for the caller
    const failure = value.circuit_open && lastFailure ? causeOf(value, lastFailure) : value;
    return { ...failure, attempts: made, latency_ms: elapsedMs(started) };
  }

  private async attempt(
    testCase: TestCase,
    options: InvokeOptions,
  ): Promise<{ result: TargetInvocation; permit?: CircuitPermit | undefined }> {
    const { breaker, limiter, timeoutInMs } = this.options;
    if (breaker && !breaker.allowsRequest()) return { result: this.circuitOpen() };
    const lease = limiter ? await limiter.acquire(options.abortSignal ? { abortSignal: options.abortSignal } : {}) : undefined;
    try {
      const permit = breaker?.tryAcquire();
      if (breaker && !permit) return { result: this.circuitOpen() };
      let result: TargetInvocation;
      try {
        result = await withTimeout((abortSignal) => this.inner.invoke(testCase, { ...options, abortSignal }), {
          timeoutInMs,
          ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        });
      } catch (error) {
        if (!(error instanceof TimeoutError)) {
          permit?.cancel();
          throw error;
        }
        result = this.timedOut();
      }
      return { result, permit };
    } finally {
      lease?.release();
    }
  }

  private timedOut(): TargetFailure {
    const { timeoutInMs } = this.options;
    return {
      ok: false,
      error_code: 'target_timeout',
      message: `target ${this.targetId} did not answer within ${timeoutInMs} ms`,
      latency_ms: timeoutInMs,
      attempts: 1,
      retryable: true,
    };
  }

  private circuitOpen(): TargetFailure {
    const snapshot = this.options.breaker!.snapshot();
    const when =
      snapshot.retry_in_ms === undefined
        ? 'once the probe in flight succeeds'
        : `with one probe in ${Math.ceil(snapshot.retry_in_ms / 1000)} s`;
    return {
      ok: false,
      error_code: 'target_error',
      message: `target ${this.targetId} is failing: its circuit breaker is open after ${snapshot.consecutive_failures} consecutive failures, so the call was not made; calls resume ${when}`,
      latency_ms: 0,
      attempts: 0,
      circuit_open: true,
      retryable: false,
    };
  }
}

/** A call refused by the open circuit after this case's own failed attempt reports that attempt's cause (e.g. the timeout), not only "circuit open". */
function causeOf(refused: TargetFailure, cause: TargetFailure): TargetFailure {
  return {
    ...refused,
    error_code: cause.error_code,
    message: `${cause.message}; the retry was not made: ${refused.message}`,
    ...(cause.http_status === undefined ? {} : { http_status: cause.http_status }),
  };
}
