import { getEventListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { TimeoutError, withTimeout } from './withTimeout.js';

/** An operation that settles after `ms` unless its signal aborts first (then it rejects with the reason). */
function work<T>(value: T, ms: number, seen?: AbortSignal[]) {
  return (signal: AbortSignal): Promise<T> => {
    seen?.push(signal);
    return delay(ms, value, { signal });
  };
}

describe('withTimeout', () => {
  it('returns the value of an operation that finishes in time, and its signal is never aborted', async () => {
    const seen: AbortSignal[] = [];
    await expect(withTimeout(work('done', 5, seen), { timeoutInMs: 1000 })).resolves.toBe('done');
    expect(seen[0]!.aborted).toBe(false);
  });

  it('rejects with TimeoutError and aborts the operation with it', async () => {
    const seen: AbortSignal[] = [];
    const error = await withTimeout(work('late', 10_000, seen), { timeoutInMs: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutInMs: 20, message: 'timed out after 20 ms' });
    expect(seen[0]!.aborted).toBe(true);
    expect(seen[0]!.reason).toBe(error);
  });

  it("rejects with the caller's reason when the caller aborts, and passes it to the operation", async () => {
    const caller = new AbortController();
    const seen: AbortSignal[] = [];
    const pending = withTimeout(work('x', 10_000, seen), { timeoutInMs: 10_000, abortSignal: caller.signal });
    const reason = new Error('run cancelled');
    caller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(seen[0]!.reason).toBe(reason);
  });

  it('rejects at once, without running the operation, when the caller already aborted', async () => {
    const caller = new AbortController();
    caller.abort(new Error('gone'));
    const seen: AbortSignal[] = [];
    await expect(withTimeout(work('x', 1, seen), { timeoutInMs: 100, abortSignal: caller.signal })).rejects.toThrow('gone');
    expect(seen).toEqual([]);
  });

  it.each([
    [
      'throws synchronously',
      (): Promise<never> => {
        throw new Error('sync boom');
      },
      'sync boom',
    ],
    ['rejects', () => Promise.reject(new Error('async boom')), 'async boom'],
  ])('passes through an operation that %s', async (_label, operation, message) => {
    await expect(withTimeout(operation, { timeoutInMs: 100 })).rejects.toThrow(message);
  });

  it('leaves no listener on a long-lived caller signal after 1000 calls (finished, timed out or failed)', async () => {
    const caller = new AbortController();
    for (let i = 0; i < 1000; i++) {
      await withTimeout(async () => i, { timeoutInMs: 1000, abortSignal: caller.signal });
    }
    await withTimeout(work(0, 1000), { timeoutInMs: 1, abortSignal: caller.signal }).catch(() => undefined);
    await withTimeout(() => Promise.reject(new Error('x')), { timeoutInMs: 1000, abortSignal: caller.signal }).catch(() => undefined);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('swallows the late rejection of an abandoned operation (no unhandled rejection)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const stubborn = async () => {
        await delay(30); // ignores its signal
        throw new Error('late failure');
      };
      await expect(withTimeout(stubborn, { timeoutInMs: 5 })).rejects.toBeInstanceOf(TimeoutError);
      await delay(60);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
