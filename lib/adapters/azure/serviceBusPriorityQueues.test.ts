import { describe, expect, it } from 'vitest';
import type { QueueMessage } from '../../ports/index.js';
import { caseMessageId, QUEUES, type CaseMessage } from '../../runs/queues.js';
import { withRunPriority } from '../../runs/index.js';
import { FakeServiceBus } from './serviceBusFake.test-helpers.js';
import { ServiceBusQueuePort } from './serviceBusQueuePort.js';

function message(runId: string, caseId: string, priority?: 'high' | 'normal' | 'low'): QueueMessage<CaseMessage> {
  return {
    messageId: caseMessageId(runId, caseId, 'evaluate', 1),
    correlationId: runId,
    body: { run_id: runId, test_case_id: caseId, attempt: 1, stage: 'evaluate', ...(priority ? { priority } : {}) },
  };
}

describe('ServiceBusQueuePort priorities (one queue per priority: Service Bus has no message priority)', () => {
  it('sends high and low messages to the -high / -low sibling queue, normal ones (and unmarked) to the queue itself', async () => {
    const bus = new FakeServiceBus();
    const port = new ServiceBusQueuePort(bus);
    const sent = await port.sendMessages(
      QUEUES.evaluate,
      withRunPriority([message('nightly', 'c1', 'low'), message('pr', 'c1', 'high'), message('plain', 'c1'), message('n', 'c1', 'normal')]),
    );
    expect(sent).toEqual({ accepted: 4, duplicates: 0 });
    const ids = (queue: string) => bus.activeMessages(queue).map((m) => m.correlationId);
    expect([ids('evaluate-cases-high'), ids('evaluate-cases'), ids('evaluate-cases-low')]).toEqual([['pr'], ['plain', 'n'], ['nightly']]);
    // the body keeps the priority, so the worker forwards the case to the same priority's next queue
    expect(bus.activeMessages('evaluate-cases-high')[0]?.body).toMatchObject({ priority: 'high' });
  });

  it('a scheduled redelivery of a low case goes to the -low queue at its time', async () => {
    const bus = new FakeServiceBus();
    const now = Date.UTC(2026, 0, 1);
    const port = new ServiceBusQueuePort(bus, { now: () => now });
    const later = new Date(now + 60_000);
    await port.sendMessages(QUEUES.judge, withRunPriority([{ ...message('nightly', 'c2', 'low'), scheduledEnqueueTimeUtc: later }]));
    expect(bus.calls).toEqual([{ op: 'scheduleMessages', queue: 'judge-cases-low', count: 1, scheduledAt: later.toISOString() }]);
  });
});
