import { describe, expect, it } from 'vitest';
import { FakeServiceBus } from './serviceBusFake.test-helpers.js';
import { ServiceBusQueuePort } from './serviceBusQueuePort.js';
import { ServiceBusRunQueues } from './serviceBusRunQueues.js';

// Against FakeServiceBus (no Service Bus emulator installs from npm; see serviceBusFake.test-helpers.ts): messages go in
// through the platform's own queue port, as the run planner and the stage workers send them.

const NOW = Date.parse('2026-05-01T12:00:00.000Z');
const message = (runId: string, caseId: string) => ({
  messageId: `${runId}:${caseId}:evaluate:1`,
  correlationId: runId,
  body: { run_id: runId, test_case_id: caseId, attempt: 1, stage: 'evaluate' },
});

describe('ServiceBusRunQueues: per-run figures from peeked Service Bus queues', () => {
  it("counts a run's visible, scheduled and dead-lettered messages across the stage queues, not another run's, and changes nothing", async () => {
    const bus = new FakeServiceBus({ now: () => NOW });
    const port = new ServiceBusQueuePort(bus, { now: () => NOW });
    await port.sendMessages('evaluate-cases', [message('run-a', 'c1'), message('run-a', 'c2'), message('run-b', 'c1')]);
    // put off by an open circuit: scheduled for after the open window
    await port.sendMessages('evaluate-cases', [
      { ...message('run-a', 'c3'), messageId: 'run-a:c3:evaluate:1:d1.1', scheduledEnqueueTimeUtc: new Date(NOW + 30_000) },
    ]);
    await port.sendMessages('judge-cases', [{ ...message('run-a', 'c4'), messageId: 'run-a:c4:judge:1' }]);
    bus.seedDeadLetters('judge-cases', [{ ...message('run-a', 'c5'), messageId: 'x1' }], {
      reason: 'ProcessingFailed',
      description: 'first',
    });
    bus.seedDeadLetters('judge-cases', [{ ...message('run-a', 'c6'), messageId: 'x2' }], {
      reason: 'InvalidMessage',
      description: 'state: Required',
    });
    bus.seedDeadLetters('judge-cases', [{ ...message('run-b', 'c6'), messageId: 'x3' }], { reason: 'Other', description: 'run b' });
    // a malformed body without a correlation id still names its run
    bus.seedDeadLetters('execute-cases', [{ messageId: 'x4', body: { run_id: 'run-a', stage: 'execute' } }], {
      reason: 'InvalidMessage',
      description: 'attempt: Required',
    });
    const before = JSON.stringify(bus.activeMessages('evaluate-cases'));

    const counts = await new ServiceBusRunQueues(bus, { pageSize: 2 }).runQueueCounts('run-a', [
      'evaluate-cases',
      'execute-cases',
      'judge-cases',
    ]);
    expect(counts).toEqual({
      waiting: 3,
      scheduled: 1,
      dead_lettered: 3,
      last_dead_letter: { reason: 'InvalidMessage', description: 'state: Required', at: expect.any(String) },
    });
    const other = await new ServiceBusRunQueues(bus, { cacheMs: 0 }).runQueueCounts('run-b', [
      'evaluate-cases',
      'execute-cases',
      'judge-cases',
    ]);
    expect([other.waiting, other.scheduled, other.dead_lettered, other.last_dead_letter?.reason]).toEqual([1, 0, 1, 'Other']);
    // peeking locks and settles nothing: the messages are all still there, deliverable
    expect(JSON.stringify(bus.activeMessages('evaluate-cases'))).toBe(before);
    expect(bus.calls.filter((c) => c.op === 'receive' || c.op === 'complete' || c.op === 'abandon')).toEqual([]);
    // a scheduled message that came due is waiting
    const later = new FakeServiceBus({ now: () => NOW + 60_000 });
    await new ServiceBusQueuePort(later, { now: () => NOW }).sendMessages('evaluate-cases', [
      { ...message('run-a', 'c3'), scheduledEnqueueTimeUtc: new Date(NOW + 30_000) },
    ]);
    expect((await new ServiceBusRunQueues(later).runQueueCounts('run-a', ['evaluate-cases'])).waiting).toBe(1);
  });

  it('one peek pass serves every run for cacheMs, then the queues are peeked again', async () => {
    let now = NOW;
    const bus = new FakeServiceBus({ now: () => now });
    const port = new ServiceBusQueuePort(bus, { now: () => now });
    await port.sendMessages('evaluate-cases', [message('run-a', 'c1'), message('run-b', 'c1'), message('run-b', 'c2')]);
    const runQueues = new ServiceBusRunQueues(bus, { cacheMs: 5_000, now: () => now });
    const queues = ['evaluate-cases'];
    expect((await runQueues.runQueueCounts('run-a', queues)).waiting).toBe(1);
    expect((await runQueues.runQueueCounts('run-b', queues)).waiting).toBe(2);
    expect((await runQueues.runQueueCounts('run-c', queues)).waiting).toBe(0);
    expect(bus.calls.filter((c) => c.op === 'peek')).toHaveLength(3); // one pass: a page, the end, the empty sub-queue
    await port.sendMessages('evaluate-cases', [message('run-a', 'c2')]);
    now += 5_000;
    expect((await runQueues.runQueueCounts('run-a', queues)).waiting).toBe(2);
    expect(bus.calls.filter((c) => c.op === 'peek')).toHaveLength(6);
  });

  it('peeks at most maxPeek messages per queue (the figures are then lower bounds) and offers no dead-lettering', async () => {
    const bus = new FakeServiceBus({ now: () => NOW });
    const port = new ServiceBusQueuePort(bus, { now: () => NOW });
    await port.sendMessages(
      'evaluate-cases',
      Array.from({ length: 30 }, (_, i) => message('run-a', `c${i}`)),
    );
    const runQueues = new ServiceBusRunQueues(bus, { maxPeek: 12, pageSize: 5 });
    expect((await runQueues.runQueueCounts('run-a', ['evaluate-cases'])).waiting).toBe(12);
    expect(bus.calls.filter((c) => c.op === 'peek').map((c) => c.count)).toEqual([5, 5, 2, 0]);
    expect('deadLetterMessages' in runQueues).toBe(false);
  });
});
