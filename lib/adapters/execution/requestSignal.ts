/** The abort signal of one request: its own timeout, plus the caller's signal. Call `dispose` when done. */
export interface RequestSignal {
  signal: AbortSignal;
  /** true once the timeout (not the caller) aborted the request */
  timedOut(): boolean;
  /** clears the timer and detaches from the caller's signal */
  dispose(): void;
}

/**
 * Combines a per-request timeout with the caller's signal. Not `AbortSignal.any([AbortSignal.timeout(ms), s])`:
 * with a long-lived caller signal (one per run) every call would leave a dependent signal attached to it
 * (nodejs/node#55351) and a pending 30 s timer; here both are released by `dispose`.
 */
export function requestSignal(timeoutInMs: number, callerSignal?: AbortSignal): RequestSignal {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${timeoutInMs} ms`, 'TimeoutError'));
  }, timeoutInMs);
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
