import { getEventListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter, type RateLimitLease } from './rateLimiter.js';

afterEach(() => {
  vi.useRealTimers();
});

/** Starts `n` acquisitions and records, per index, the fake time at which each was granted. */
function acquireAll(limiter: RateLimiter, n: number, signal?: AbortSignal) {
  const granted: (number | undefined)[] = Array.from({ length: n }, () => undefined);
  const leases: RateLimitLease[] = [];
  const order: number[] = [];
  const done = Array.from({ length: n }, (_, i) =>
    limiter.acquire(signal ? { abortSignal: signal } : {}).then((lease) => {
      granted[i] = Date.now();
      order.push(i);
      leases.push(lease);
    }),
  );
  return { granted, leases, order, done };
}

describe('RateLimiter: rate (token bucket)', () => {
  it('grants the burst at once, then one token per 1/rps, in FIFO order', async () => {
    vi.useFakeTimers({ now: 0 });
    const limiter = new RateLimiter({ requestsPerSecond: 10, maxInFlight: 100, burst: 2, now: () => Date.now() });
    const { granted, order, done } = acquireAll(limiter, 6);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual([0, 0, undefined, undefined, undefined, undefined]);
    await vi.advanceTimersByTimeAsync(99);
    expect(granted[2]).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(granted[2]).toBe(100);
    await vi.advanceTimersByTimeAsync(300);
    await Promise.all(done);
    expect(granted).toEqual([0, 0, 100, 200, 300, 400]);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it.each([
    [50, 1, 51],
    [20, 5, 40],
    [1000, undefined, 2500],
  ])('never exceeds burst + rate x elapsed (rps %i, burst %s, %i calls)', async (rps, burst, calls) => {
    vi.useFakeTimers({ now: 0 });
    const limiter = new RateLimiter({ requestsPerSecond: rps, maxInFlight: 10_000, now: () => Date.now(), ...(burst ? { burst } : {}) });
    const { granted, done } = acquireAll(limiter, calls);
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all(done);
    const times = granted as number[];
    const bucket = burst ?? rps;
    for (const t of [0, 10, 100, 250, 999, 1500]) {
      const inWindow = times.filter((g) => g <= t).length;
      expect(inWindow).toBeLessThanOrEqual(Math.floor(bucket + (rps * t) / 1000));
    }
    // and it is not slower than the rate needs (within one timer tick per grant)
    const last = Math.max(...times);
    expect(last).toBeLessThanOrEqual(Math.ceil(((calls - bucket) * 1000) / rps) + calls);
  });
});

describe('RateLimiter: in-flight bound', () => {
  it('holds at most maxInFlight leases at once and serves everyone', async () => {
    const limiter = new RateLimiter({ requestsPerSecond: 10_000, maxInFlight: 3 });
    let running = 0;
    let peak = 0;
    const task = async () => {
      const lease = await limiter.acquire();
      running++;
      peak = Math.max(peak, running);
      await delay(5);
      running--;
      lease.release();
    };
    await Promise.all(Array.from({ length: 20 }, task));
    expect(peak).toBe(3);
    expect(limiter.snapshot()).toMatchObject({ in_flight: 0, queued: 0 });
  });

  it('a released slot goes to the oldest waiter; release is idempotent', async () => {
    const limiter = new RateLimiter({ requestsPerSecond: 10_000, maxInFlight: 1 });
    const first = await limiter.acquire();
    const { order, leases, done } = acquireAll(limiter, 3);
    await delay(1);
    expect(order).toEqual([]);
    first.release();
    first.release(); // a second release must not free another slot
    await delay(1);
    expect(order).toEqual([0]);
    expect(limiter.snapshot()).toMatchObject({ in_flight: 1, queued: 2 });
    leases[0]!.release();
    await delay(1);
    leases[1]!.release();
    await Promise.all(done);
    expect(order).toEqual([0, 1, 2]);
  });
});

describe('RateLimiter: abortable waits', () => {
  it("an aborted waiter leaves the queue with the signal's reason; the others keep their order", async () => {
    const limiter = new RateLimiter({ requestsPerSecond: 10_000, maxInFlight: 1 });
    const held = await limiter.acquire();
    const caller = new AbortController();
    const a = limiter.acquire();
    const b = limiter.acquire({ abortSignal: caller.signal });
    const c = limiter.acquire();
    const reason = new Error('run cancelled');
    caller.abort(reason);
    await expect(b).rejects.toBe(reason);
    expect(limiter.snapshot()).toMatchObject({ in_flight: 1, queued: 2 });
    held.release();
    (await a).release();
    (await c).release();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects at once with an already-aborted signal and detaches from signals of granted waiters', async () => {
    const limiter = new RateLimiter({ requestsPerSecond: 10_000, maxInFlight: 1 });
    await expect(limiter.acquire({ abortSignal: AbortSignal.abort(new Error('no')) })).rejects.toThrow('no');
    const caller = new AbortController();
    const held = await limiter.acquire({ abortSignal: caller.signal });
    const queued = limiter.acquire({ abortSignal: caller.signal });
    held.release();
    (await queued).release();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it.each([
    [{ requestsPerSecond: 0, maxInFlight: 1 }],
    [{ requestsPerSecond: 1, maxInFlight: 0 }],
    [{ requestsPerSecond: 1, maxInFlight: 1.5 }],
    [{ requestsPerSecond: 1, maxInFlight: 1, burst: 0.5 }],
  ])('rejects bad options %j', (options) => {
    expect(() => new RateLimiter(options)).toThrow(RangeError);
  });
});
