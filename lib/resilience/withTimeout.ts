/** The operation did not settle within `timeoutInMs`. Also the abort reason its signal receives. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly timeoutInMs: number) {
    super(`timed out after ${timeoutInMs} ms`);
  }
}

export interface WithTimeoutOptions {
  timeoutInMs: number;
  /** the caller's signal (e.g. one per run): its abort rejects with its reason */
  abortSignal?: AbortSignal;
}

/**
 * Runs `operation` with a fresh AbortController whose signal fires on the timeout or the caller's abort.
 * Settles as soon as one of the three happens: the operation's own result, TimeoutError (the signal is aborted
 * with that error), or the caller's abort reason. The timer is cleared and the listener on the caller's signal
 * removed when it settles, so a long-lived caller signal collects no listeners (unlike
 * `AbortSignal.any([AbortSignal.timeout(ms), signal])`, nodejs/node#55351). A late rejection of an abandoned
 * operation is swallowed.
 */
export function withTimeout<T>(operation: (abortSignal: AbortSignal) => Promise<T>, options: WithTimeoutOptions): Promise<T> {
  const { timeoutInMs, abortSignal: caller } = options;
  if (caller?.aborted) return Promise.reject(caller.reason);
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
      return true;
    };
    // Reject first, then abort: the operation's own abort error must not win the race.
    const onCallerAbort = (): void => {
      if (!settle()) return;
      reject(caller?.reason);
      controller.abort(caller?.reason);
    };
    const timer = setTimeout(() => {
      if (!settle()) return;
      const error = new TimeoutError(timeoutInMs);
      reject(error);
      controller.abort(error);
    }, timeoutInMs);
    caller?.addEventListener('abort', onCallerAbort, { once: true });
    let pending: Promise<T>;
    try {
      pending = operation(controller.signal);
    } catch (error) {
      if (settle()) reject(error);
      return;
    }
    pending.then(
      (value) => {
        if (settle()) resolve(value);
      },
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
  });
}
