import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abortableSleep, backoffDelayInMs, retry, retryWaitInMs, type RetryDecision } from './retry.js';

/** A scripted operation: returns the i-th result and records the attempt numbers it saw. */
function scripted<T>(results: T[]) {
  const seen: number[] = [];
  const operation = async (attempt: number): Promise<T> => {
    seen.push(attempt);
    return results[Math.min(attempt - 1, results.length - 1)]!;
  };
  return { operation, seen };
}

const retryFailures = (result: string): RetryDecision => (result === 'fail' ? {} : false);

describe('backoffDelayInMs (full jitter)', () => {
  it('stays in [0, min(cap, base * 2^retry)) for any random draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retryIndex, base, cap, draw) => {
          const delay = backoffDelayInMs(retryIndex, { retryDelayInMs: base, maxRetryDelayInMs: cap }, () => draw);
          const ceiling = Math.min(cap, base * 2 ** retryIndex);
          return Number.isInteger(delay) && delay >= 0 && delay < Math.max(1, ceiling);
        },
      ),
    );
  });

  it.each([
    [0, 0.999, 99],
    [1, 0.999, 199],
    [2, 0.5, 200],
    [10, 0.999, 999], // capped at maxRetryDelayInMs
    [3, 0, 0],
  ])('retry %i with draw %d -> %i ms (base 100, cap 1000)', (retryIndex, draw, expected) => {
    expect(backoffDelayInMs(retryIndex, { retryDelayInMs: 100, maxRetryDelayInMs: 1000 }, () => draw)).toBe(expected);
  });

  it('spreads real draws over the whole window (jitter, not a fixed delay)', () => {
    const delays = Array.from({ length: 2000 }, () => backoffDelayInMs(2, { retryDelayInMs: 100, maxRetryDelayInMs: 10_000 }));
    expect(Math.min(...delays)).toBeLessThan(40);
    expect(Math.max(...delays)).toBeGreaterThan(360);
    expect(Math.max(...delays)).toBeLessThan(400);
  });
});

describe('retryWaitInMs', () => {
  const options = { maxRetries: 3, retryDelayInMs: 100, maxRetryDelayInMs: 1000, random: () => 0.5 };
  it.each([
    [{}, 50],
    [{ retryAfterInMs: 2000 }, 2000], // the server asked for more than the jitter
    [{ retryAfterInMs: 10 }, 50], // never less than the jitter
    [{ retryAfterInMs: 120_000 }, 60_000], // clamped to maxRetryAfterInMs (default 60 s)
  ])('%j -> %i ms', (decision, expected) => {
    expect(retryWaitInMs(0, decision, options)).toBe(expected);
  });
});

describe('retry', () => {
  it('returns the first result that is not retried, counting attempts', async () => {
    const { operation, seen } = scripted(['fail', 'fail', 'ok']);
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const outcome = await retry(operation, retryFailures, { maxRetries: 3, retryDelayInMs: 100, random: () => 0.5, sleep });
    expect(outcome).toEqual({ value: 'ok', attempts: 3 });
    expect(seen).toEqual([1, 2, 3]);
    expect(waits).toEqual([50, 100]); // full jitter at draw 0.5: 100 * 2^0 / 2, 100 * 2^1 / 2
  });

  it.each([
    [0, 1],
    [1, 2],
    [3, 4],
  ])('with maxRetries %i gives up after %i attempts and returns the last result', async (maxRetries, attempts) => {
    const { operation } = scripted(['fail']);
    const outcome = await retry(operation, retryFailures, { maxRetries, sleep: async () => {} });
    expect(outcome).toEqual({ value: 'fail', attempts });
  });

  it('does not retry a result the classifier keeps (a non-retryable failure)', async () => {
    const { operation, seen } = scripted(['fatal', 'ok']);
    const outcome = await retry(operation, retryFailures, { maxRetries: 5, sleep: async () => {} });
    expect(outcome).toEqual({ value: 'fatal', attempts: 1 });
    expect(seen).toEqual([1]);
  });

  it('waits at least the Retry-After the result asks for', async () => {
    const { operation } = scripted(['429', 'ok']);
    const waits: number[] = [];
    await retry(operation, (r) => (r === '429' ? { retryAfterInMs: 1234 } : false), {
      maxRetries: 2,
      random: () => 0,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(waits).toEqual([1234]);
  });

  it('propagates an exception from the operation without retrying', async () => {
    let calls = 0;
    const boom = async () => {
      calls++;
      throw new Error('bug');
    };
    await expect(retry(boom, () => ({}), { maxRetries: 3, sleep: async () => {} })).rejects.toThrow('bug');
    expect(calls).toBe(1);
  });

  it("stops waiting when the caller aborts, rejecting with the caller's reason", async () => {
    const caller = new AbortController();
    const { operation, seen } = scripted(['fail']);
    const pending = retry(operation, retryFailures, {
      maxRetries: 3,
      retryDelayInMs: 10_000,
      random: () => 0.99,
      abortSignal: caller.signal,
    });
    setTimeout(() => caller.abort(new Error('cancelled')), 20);
    const started = performance.now();
    await expect(pending).rejects.toThrow('cancelled');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(seen).toEqual([1]);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});

describe('abortableSleep', () => {
  it('resolves after the wait and detaches from the signal', async () => {
    const caller = new AbortController();
    await abortableSleep(5, caller.signal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it("rejects at once with an already-aborted signal's reason", async () => {
    const reason = new Error('already');
    await expect(abortableSleep(1000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
