import { describe, expect, it } from 'vitest';
import { deadLetterPortContract } from '../../ports/contracts/deadLetters.contract.js';
import { FakeServiceBus } from './serviceBusFake.test-helpers.js';
import { ServiceBusDeadLetters } from './serviceBusDeadLetters.js';
import { REPLAY_ID_PROPERTY, REPLAYED_AT_PROPERTY, REPLAYED_FROM_PROPERTY } from './serviceBusMessages.js';

// Against FakeServiceBus (no Service Bus emulator installs from npm; see serviceBusFake.test-helpers.ts).
// serviceBus.contract.test.ts runs the same contract against a real namespace when one is configured.

const REASON = { reason: 'MaxDeliveryCountExceeded', description: 'Message could not be consumed after 10 delivery attempts.' };
const AT = new Date('2026-05-01T12:00:00.000Z');

deadLetterPortContract('ServiceBusDeadLetters (in-memory fake)', async () => {
  const bus = new FakeServiceBus();
  return {
    deadLetters: new ServiceBusDeadLetters(bus, { maxWaitTimeInMs: 1 }),
    queues: ['evaluate-cases', 'judge-cases'],
    seed: async (queue, messages, reason) =>
      bus.seedDeadLetters(
        queue,
        messages.map((m) => ({ ...m })),
        reason,
      ),
    drain: async (queue) => {
      const receiver = bus.createReceiver(queue);
      const received = await receiver.receiveMessages(10_000);
      for (const m of received) await receiver.completeMessage(m);
      return received.map((m) => ({
        body: m.body,
        applicationProperties: m.applicationProperties ?? {},
        ...(m.correlationId === undefined ? {} : { correlationId: String(m.correlationId) }),
      }));
    },
  };
});

function seeded(n: number, bus = new FakeServiceBus()) {
  bus.seedDeadLetters(
    'judge-cases',
    Array.from({ length: n }, (_, i) => ({
      messageId: `m${i}`,
      body: { i },
      correlationId: 'run-1',
      subject: 's',
      applicationProperties: { traceparent: 'tp' },
    })),
    REASON,
  );
  return bus;
}

describe('ServiceBusDeadLetters', () => {
  it('replays a copy with a new deterministic messageId and provenance properties, sent in one batch before the originals are completed', async () => {
    const bus = seeded(3);
    const port = new ServiceBusDeadLetters(bus, { maxWaitTimeInMs: 1, now: () => AT });
    expect(await port.replayDeadLetters('judge-cases')).toEqual({ replayed: 3, notFound: [] });
    const copies = bus.activeMessages('judge-cases');
    expect(copies[0]).toEqual({
      body: { i: 0 },
      messageId: 'm0~r1',
      correlationId: 'run-1',
      subject: 's',
      // the reason it was dead-lettered with travels on the copy (a repeat after the replay is then recognisable)
      applicationProperties: {
        traceparent: 'tp',
        DeadLetterReason: REASON.reason,
        DeadLetterErrorDescription: REASON.description,
        [REPLAYED_FROM_PROPERTY]: 'm0',
        [REPLAYED_AT_PROPERTY]: AT.toISOString(),
        [REPLAY_ID_PROPERTY]: expect.any(String),
      },
      sequenceNumber: 4,
    });
    expect(bus.calls.filter((c) => c.op !== 'receive').map((c) => [c.op, c.subQueue ?? 'main', c.count])).toEqual([
      ['sendBatch', 'main', 3],
      ['complete', 'deadLetter', 1],
      ['complete', 'deadLetter', 1],
      ['complete', 'deadLetter', 1],
    ]);
    expect(bus.deadLetterCount('judge-cases')).toBe(0);
  });

  it('a replay retried after a crash sends copies with the same ids, which duplicate detection drops', async () => {
    const bus = seeded(1);
    const first = bus.createReceiver('judge-cases', { subQueueType: 'deadLetter' });
    const [original] = await first.receiveMessages(1);
    const { replayCopy } = await import('./serviceBusMessages.js');
    bus.enqueue('judge-cases', replayCopy(original!, { id: 'crashed', at: AT })); // sent, then the process died before completing
    await first.close();
    await new ServiceBusDeadLetters(bus, { maxWaitTimeInMs: 1 }).replayDeadLetters('judge-cases');
    expect(bus.activeMessages('judge-cases').map((m) => m.messageId)).toEqual(['m0~r1']);
  });

  it('replay by id abandons the messages it skipped, after holding their locks for the whole scan', async () => {
    const bus = seeded(5);
    const port = new ServiceBusDeadLetters(bus, { maxWaitTimeInMs: 1, receiveBatchSize: 2 });
    expect(await port.replayDeadLetters('judge-cases', { messageIds: ['m3', 'zz'] })).toEqual({ replayed: 1, notFound: ['zz'] });
    expect(bus.calls.filter((c) => c.subQueue === 'deadLetter').map((c) => `${c.op}:${c.count}`)).toEqual([
      'receive:2',
      'receive:2',
      'complete:1',
      'receive:1',
      'receive:0',
      'abandon:1',
      'abandon:1',
      'abandon:1',
      'abandon:1',
    ]);
    expect((await port.listDeadLetters('judge-cases')).map((m) => m.messageId)).toEqual(['m0', 'm1', 'm2', 'm4']);
  });

  it('does not replay its own copies again when they come back dead-lettered during the same call', async () => {
    const bus = seeded(1);
    const port = new ServiceBusDeadLetters(bus, { maxWaitTimeInMs: 1, now: () => AT });
    // a receiver that dead-letters every copy the moment it is sent (a message that fails at once, every time)
    const sender = bus.createSender.bind(bus);
    bus.createSender = (q: string) => {
      const s = sender(q);
      return {
        ...s,
        sendMessages: async (batch) => {
          await s.sendMessages(batch);
          for (const m of bus.entity(q).active.splice(0)) bus.entity(q).deadLetter.push({ ...m, deadLetterReason: 'again' });
        },
      };
    };
    expect(await port.replayDeadLetters('judge-cases')).toEqual({ replayed: 1, notFound: [] });
    expect((await port.listDeadLetters('judge-cases')).map((m) => [m.messageId, m.deadLetterReason])).toEqual([['m0~r1', 'again']]);
  });

  it('lists past one peek page, up to the limit', async () => {
    const bus = seeded(600);
    const port = new ServiceBusDeadLetters(bus);
    expect((await port.listDeadLetters('judge-cases', { limit: 520 })).map((m) => m.messageId)).toEqual(
      Array.from({ length: 520 }, (_, i) => `m${i}`),
    );
    expect(bus.calls.map((c) => `${c.op}:${c.count}`)).toEqual(['peek:250', 'peek:250', 'peek:20']);
  });

  it('honours an abort signal', async () => {
    const port = new ServiceBusDeadLetters(seeded(3));
    await expect(port.replayDeadLetters('judge-cases', { abortSignal: AbortSignal.abort(new Error('stop')) })).rejects.toThrow('stop');
  });
});
