import { context, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueMessage } from '../../ports/index.js';
import { caseMessageId, QUEUES, type CaseMessage } from '../../runs/queues.js';
import { startTestTelemetry, type TestTelemetry } from '../../telemetry/telemetry.test-helpers.js';
import { FakeServiceBus } from './serviceBusFake.test-helpers.js';
import { MessageTooLargeError, ServiceBusQueuePort } from './serviceBusQueuePort.js';

// Service Bus has no emulator on npm: these tests drive the adapter against FakeServiceBus (serviceBusFake.test-helpers.ts),
// an in-memory implementation of the few client calls it makes. serviceBus.contract.test.ts runs against a real namespace.

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function caseMessages(n: number, extra: Partial<QueueMessage<CaseMessage>> = {}): QueueMessage<CaseMessage>[] {
  // three-digit ids: every message has the same size
  return Array.from({ length: n }, (_, i) => ({
    messageId: caseMessageId('run-1', `case-${String(i).padStart(3, '0')}`, 'evaluate', 1),
    correlationId: 'run-1',
    body: { run_id: 'run-1', test_case_id: `case-${String(i).padStart(3, '0')}`, attempt: 1, stage: 'evaluate' },
    ...extra,
  }));
}

/** bytes one of caseMessages' messages takes in FakeBatch (so tests can size a batch to hold exactly N) */
const ONE =
  Buffer.byteLength(
    JSON.stringify({
      body: caseMessages(1)[0]!.body,
      messageId: caseMessages(1)[0]!.messageId,
      contentType: 'application/json',
      correlationId: 'run-1',
    }),
  ) + 64;

let telemetry: TestTelemetry | undefined;
afterEach(async () => {
  await telemetry?.shutdown();
  telemetry = undefined;
});

describe('ServiceBusQueuePort', () => {
  it.each([
    ['nothing', 0, []],
    ['one message', 1, [1]],
    ['exactly one full batch', 10, [10]],
    ['one more than a batch', 11, [10, 1]],
    ['two and a half batches', 25, [10, 10, 5]],
  ])('sends %s in full batches (createMessageBatch, tryAddMessage, send when full)', async (_name, n, batches) => {
    const bus = new FakeServiceBus({ maxBatchSizeInBytes: ONE * 10 + 5 });
    const port = new ServiceBusQueuePort(bus);
    expect(await port.sendMessages(QUEUES.evaluate, caseMessages(n))).toEqual({ accepted: n, duplicates: 0 });
    expect(bus.calls).toEqual(batches.map((count) => ({ op: 'sendBatch', queue: QUEUES.evaluate, count })));
    expect(bus.activeMessages(QUEUES.evaluate).map((m) => m.messageId)).toEqual(caseMessages(n).map((m) => m.messageId));
  });

  it('sends the deterministic messageId, correlation id, JSON body and properties as given', async () => {
    const bus = new FakeServiceBus();
    const [message] = caseMessages(1, { applicationProperties: { traceparent: TRACEPARENT, 'Diagnostic-Id': TRACEPARENT } });
    await new ServiceBusQueuePort(bus).sendMessages(QUEUES.evaluate, [message!]);
    expect(bus.activeMessages(QUEUES.evaluate)).toEqual([
      {
        body: message!.body,
        messageId: 'run-1:case-000:evaluate:1',
        contentType: 'application/json',
        correlationId: 'run-1',
        applicationProperties: { traceparent: TRACEPARENT, 'Diagnostic-Id': TRACEPARENT },
        sequenceNumber: 1,
      },
    ]);
  });

  it('re-sending the same cases is dropped by duplicate detection (messageId), so a retried shard sends nothing twice', async () => {
    const bus = new FakeServiceBus();
    const port = new ServiceBusQueuePort(bus);
    await port.sendMessages(QUEUES.evaluate, caseMessages(5));
    await port.sendMessages(QUEUES.evaluate, caseMessages(7));
    expect(bus.activeMessages(QUEUES.evaluate)).toHaveLength(7);
  });

  it('adds the active span as traceparent and Diagnostic-Id when tracing is on and the message has none', async () => {
    telemetry = await startTestTelemetry();
    const bus = new FakeServiceBus();
    const port = new ServiceBusQueuePort(bus);
    const span = trace.getTracer('test').startSpan('enqueue');
    await context.with(trace.setSpan(context.active(), span), () => port.sendMessages(QUEUES.evaluate, caseMessages(2)));
    span.end();
    const expected = `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;
    expect(bus.activeMessages(QUEUES.evaluate).map((m) => m.applicationProperties)).toEqual([
      { traceparent: expected, 'Diagnostic-Id': expected },
      { traceparent: expected, 'Diagnostic-Id': expected },
    ]);
  });

  it('keeps a traceparent the message already has, and adds none while tracing is off', async () => {
    const bus = new FakeServiceBus();
    const port = new ServiceBusQueuePort(bus);
    await port.sendMessages(QUEUES.judge, caseMessages(1));
    expect(bus.activeMessages(QUEUES.judge)[0]!.applicationProperties).toBeUndefined();
    telemetry = await startTestTelemetry();
    const span = trace.getTracer('test').startSpan('other');
    const own = caseMessages(1, { messageId: 'm2', applicationProperties: { traceparent: TRACEPARENT } });
    await context.with(trace.setSpan(context.active(), span), () => port.sendMessages(QUEUES.judge, own));
    span.end();
    expect(bus.activeMessages(QUEUES.judge)[1]!.applicationProperties).toEqual({ traceparent: TRACEPARENT });
  });

  it('schedules future messages with scheduleMessages, grouped by time and chunked; due ones go in the batch', async () => {
    const now = Date.parse('2026-05-01T00:00:00Z');
    const bus = new FakeServiceBus({ now: () => now });
    const port = new ServiceBusQueuePort(bus, { now: () => now, scheduleChunkSize: 2 });
    const at1 = new Date(now + 60_000);
    const at2 = new Date(now + 120_000);
    const messages = [
      ...caseMessages(3, { scheduledEnqueueTimeUtc: at1 }),
      { ...caseMessages(1)[0]!, messageId: 'due', scheduledEnqueueTimeUtc: new Date(now - 1) },
      { ...caseMessages(1)[0]!, messageId: 'later', scheduledEnqueueTimeUtc: at2 },
    ];
    expect(await port.sendMessages(QUEUES.execute, messages)).toEqual({ accepted: 5, duplicates: 0 });
    expect(bus.calls).toEqual([
      { op: 'sendBatch', queue: QUEUES.execute, count: 1 },
      { op: 'scheduleMessages', queue: QUEUES.execute, count: 2, scheduledAt: at1.toISOString() },
      { op: 'scheduleMessages', queue: QUEUES.execute, count: 1, scheduledAt: at1.toISOString() },
      { op: 'scheduleMessages', queue: QUEUES.execute, count: 1, scheduledAt: at2.toISOString() },
    ]);
  });

  it('throws MessageTooLargeError naming the message when one message alone exceeds the batch limit, after sending what fitted', async () => {
    const bus = new FakeServiceBus({ maxBatchSizeInBytes: ONE * 2 });
    const port = new ServiceBusQueuePort(bus);
    const big = { ...caseMessages(1)[0]!, messageId: 'big', body: { ...caseMessages(1)[0]!.body, state: 'x'.repeat(ONE * 3) } };
    const error = await port.sendMessages(QUEUES.judge, [...caseMessages(1), big]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageTooLargeError);
    expect(error).toMatchObject({ queueName: QUEUES.judge, messageId: 'big' });
    expect(bus.calls).toEqual([{ op: 'sendBatch', queue: QUEUES.judge, count: 1 }]);
  });

  it('keeps one sender per queue and closes them', async () => {
    const bus = new FakeServiceBus();
    const created: string[] = [];
    const closed: string[] = [];
    const client = {
      createSender: (q: string) => {
        created.push(q);
        const sender = bus.createSender(q);
        return { ...sender, close: async () => void closed.push(q) };
      },
      createReceiver: bus.createReceiver.bind(bus),
      close: async () => {},
    };
    const port = new ServiceBusQueuePort(client);
    await port.sendMessages(QUEUES.evaluate, caseMessages(1));
    await port.sendMessages(QUEUES.evaluate, caseMessages(2));
    await port.sendMessages(QUEUES.judge, caseMessages(1));
    await port.close();
    expect([created, closed.sort()]).toEqual([
      [QUEUES.evaluate, QUEUES.judge],
      [QUEUES.evaluate, QUEUES.judge],
    ]);
  });
});
