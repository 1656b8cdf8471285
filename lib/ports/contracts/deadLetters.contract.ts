import { describe, expect, it } from 'vitest';
import type { DeadLetterPort } from '../deadLetters.js';

export interface SeedMessage {
  messageId: string;
  body: unknown;
  correlationId?: string;
  applicationProperties?: Record<string, string | number | boolean>;
}

export interface ActiveMessage {
  body: unknown;
  correlationId?: string;
  applicationProperties: Record<string, unknown>;
}

/** What a dead-letter adapter's test supplies: the port, and a way to put messages into and take them out of queues. */
export interface DeadLetterFixture {
  deadLetters: DeadLetterPort;
  /** two queue names, empty (main and dead-letter sub-queue) at the start of each test */
  queues: readonly [string, string];
  /** sends the messages, receives them and dead-letters them with this reason and description */
  seed(queue: string, messages: readonly SeedMessage[], reason: { reason: string; description: string }): Promise<void>;
  /** receives and completes every message now in the queue (not its dead-letter sub-queue), oldest first */
  drain(queue: string): Promise<ActiveMessage[]>;
  dispose?(): Promise<void>;
}

const message = (n: number): SeedMessage => ({
  messageId: `run-1:case-${n}:evaluate:1`,
  body: { run_id: 'run-1', test_case_id: `case-${n}`, attempt: 1, stage: 'evaluate' },
  correlationId: 'run-1',
  applicationProperties: { traceparent: `00-0af7651916cd43dd8448eb211c80319c-00000000000000${String(n).padStart(2, '0')}-01`, n },
});
const REASON = { reason: 'MaxDeliveryCountExceeded', description: 'Message could not be consumed after 10 delivery attempts.' };

/**
 * The DeadLetterPort contract: listing (oldest first, limit, nothing changes), replay of chosen ids (copies keep
 * body, correlation id and application properties; unknown ids reported) and of everything, queue isolation.
 */
export function deadLetterPortContract(name: string, createFixture: () => Promise<DeadLetterFixture>): void {
  describe(`${name}: DeadLetterPort contract`, () => {
    const withFixture = (test: (f: DeadLetterFixture) => Promise<void>) => async () => {
      const fixture = await createFixture();
      try {
        await test(fixture);
      } finally {
        await fixture.dispose?.();
      }
    };

    it(
      'lists nothing and replays nothing when the dead-letter sub-queue is empty',
      withFixture(async ({ deadLetters, queues: [q] }) => {
        expect(await deadLetters.listDeadLetters(q)).toEqual([]);
        expect(await deadLetters.replayDeadLetters(q)).toEqual({ replayed: 0, notFound: [] });
        expect(await deadLetters.replayDeadLetters(q, { messageIds: ['nope'] })).toEqual({ replayed: 0, notFound: ['nope'] });
      }),
    );

    it(
      'lists dead letters oldest first with reason, description and content; honours limit; changes nothing',
      withFixture(async (f) => {
        const [q] = f.queues;
        const seeded = [message(1), message(2), message(3)];
        await f.seed(q, seeded, REASON);
        const listed = await f.deadLetters.listDeadLetters(q);
        expect(listed).toEqual(
          seeded.map((m) => ({
            messageId: m.messageId,
            sequenceNumber: expect.stringMatching(/^\d+$/),
            deadLetterReason: REASON.reason,
            deadLetterErrorDescription: REASON.description,
            deliveryCount: expect.any(Number),
            enqueuedTimeUtc: expect.any(Date),
            correlationId: m.correlationId,
            applicationProperties: expect.objectContaining(m.applicationProperties),
            body: m.body,
          })),
        );
        expect((await f.deadLetters.listDeadLetters(q, { limit: 2 })).map((m) => m.messageId)).toEqual(
          seeded.slice(0, 2).map((m) => m.messageId),
        );
        expect(await f.deadLetters.listDeadLetters(q)).toHaveLength(3);
        expect(await f.drain(q)).toEqual([]);
      }),
    );

    it(
      'replays chosen ids: copies go to the main queue with the same content, the rest stay, unknown ids are reported',
      withFixture(async (f) => {
        const [q] = f.queues;
        const seeded = [message(1), message(2), message(3)];
        await f.seed(q, seeded, REASON);
        const result = await f.deadLetters.replayDeadLetters(q, { messageIds: [seeded[0]!.messageId, seeded[2]!.messageId, 'missing-id'] });
        expect(result).toEqual({ replayed: 2, notFound: ['missing-id'] });
        const active = await f.drain(q);
        expect(active).toEqual(
          [seeded[0]!, seeded[2]!].map((m) => ({
            body: m.body,
            correlationId: m.correlationId,
            applicationProperties: expect.objectContaining(m.applicationProperties),
          })),
        );
        expect((await f.deadLetters.listDeadLetters(q)).map((m) => m.messageId)).toEqual([seeded[1]!.messageId]);
      }),
    );

    it(
      'replays everything of one queue and leaves the other queue alone',
      withFixture(async (f) => {
        const [q, other] = f.queues;
        await f.seed(q, [message(1), message(2)], REASON);
        await f.seed(other, [message(9)], { reason: 'TTLExpiredException', description: 'expired' });
        expect(await f.deadLetters.replayDeadLetters(q)).toEqual({ replayed: 2, notFound: [] });
        expect((await f.drain(q)).map((m) => m.body)).toEqual([message(1).body, message(2).body]);
        expect(await f.deadLetters.listDeadLetters(q)).toEqual([]);
        expect((await f.deadLetters.listDeadLetters(other)).map((m) => [m.messageId, m.deadLetterReason])).toEqual([
          [message(9).messageId, 'TTLExpiredException'],
        ]);
        expect(await f.drain(other)).toEqual([]);
      }),
    );
  });
}
