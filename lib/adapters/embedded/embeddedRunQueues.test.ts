import { describe, expect, it } from 'vitest';
import type { SqliteQueueEngine } from '../../host/index.js';
import { COUNT_REUSE_FACTOR, EmbeddedRunQueues } from './embeddedRunQueues.js';

/** An engine whose per-run count takes `costMs` on a fake clock (as scanning a deep queue does) and counts its calls. */
function engineCosting(costMs: number) {
  let calls = 0;
  let waiting = 3;
  const clock = { ms: 0 };
  const engine = {
    correlationCounts: () => {
      calls++;
      clock.ms += costMs;
      return { waiting, scheduled: 0, deadLettered: 0 };
    },
  } as unknown as SqliteQueueEngine;
  return { engine, clock, now: () => clock.ms, calls: () => calls, setWaiting: (n: number) => (waiting = n) };
}

describe('EmbeddedRunQueues', () => {
  it('reuses an expensive count for a bounded time, so polling a deep run costs a small share of a core', async () => {
    const { engine, clock, now, calls, setWaiting } = engineCosting(20);
    const queues = new EmbeddedRunQueues(engine, now);
    const first = await queues.runQueueCounts('run-a', ['evaluate-cases']);
    setWaiting(99);
    const again = await queues.runQueueCounts('run-a', ['evaluate-cases']);
    expect(calls()).toBe(1);
    expect(again).toEqual(first);
    again.waiting = -1; // callers get their own copy
    expect((await queues.runQueueCounts('run-a', ['evaluate-cases'])).waiting).toBe(3);
    // another run is its own count
    expect((await queues.runQueueCounts('run-b', ['evaluate-cases'])).waiting).toBe(99);
    expect(calls()).toBe(2);
    // the reuse ends COUNT_REUSE_FACTOR+1 times the cost after the count started (20 ms -> 420 ms)
    clock.ms = 20 * (COUNT_REUSE_FACTOR + 1) - 1;
    expect((await queues.runQueueCounts('run-a', ['evaluate-cases'])).waiting).toBe(3);
    clock.ms = 20 * (COUNT_REUSE_FACTOR + 1);
    expect((await queues.runQueueCounts('run-a', ['evaluate-cases'])).waiting).toBe(99);
  });

  it('counts afresh when asked (the watchdog deciding a run is stalled)', async () => {
    const { engine, now, calls, setWaiting } = engineCosting(20);
    const queues = new EmbeddedRunQueues(engine, now);
    await queues.runQueueCounts('run-a', ['evaluate-cases']);
    setWaiting(5);
    expect((await queues.runQueueCounts('run-a', ['evaluate-cases'], { fresh: true })).waiting).toBe(5);
    expect(calls()).toBe(2);
  });

  it('counts cheap queues afresh on every call', async () => {
    const { engine, now, calls, setWaiting } = engineCosting(0);
    const queues = new EmbeddedRunQueues(engine, now);
    await queues.runQueueCounts('run-a', ['evaluate-cases']);
    setWaiting(7);
    expect((await queues.runQueueCounts('run-a', ['evaluate-cases'])).waiting).toBe(7);
    expect(calls()).toBe(2);
  });
});
