import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteQueueEngine } from './queueEngine.js';
import { TempDatabase } from './testSupport.js';
import type { QueueEngineOptions } from './types.js';

const T0 = Date.UTC(2025, 0, 1);

describe('SqliteQueueEngine', () => {
  let temp: TempDatabase;
  let clock: number;
  const engineFor = (options: QueueEngineOptions = {}) =>
    new SqliteQueueEngine(temp.db, { now: () => clock, lockDurationMs: 1_000, ...options });

  beforeEach(() => {
    temp = new TempDatabase();
    clock = T0;
  });
  afterEach(() => temp.dispose());

  it('sends and receives a message with every field, locked for the lock duration', () => {
    const engine = engineFor();
    const sent = engine.send('q', [
      {
        body: { caseId: 'c1' },
        messageId: 'run1:c1:logic',
        correlationId: 'corr',
        subject: 'case',
        applicationProperties: { traceparent: '00-abc', attempt: 2, replay: false },
        timeToLiveMs: 60_000,
      },
    ]);
    expect(sent).toEqual({ accepted: 1, duplicates: 0 });
    const [message] = engine.receive('q', { maxMessages: 10 });
    expect(message).toEqual({
      lockToken: expect.stringMatching(/^[0-9a-f-]{36}$/),
      messageId: 'run1:c1:logic',
      body: { caseId: 'c1' },
      deliveryCount: 1,
      enqueuedTimeUtc: new Date(T0),
      lockedUntilUtc: new Date(T0 + 1_000),
      expiresAtUtc: new Date(T0 + 60_000),
      sequenceNumber: expect.any(Number),
      correlationId: 'corr',
      subject: 'case',
      applicationProperties: { traceparent: '00-abc', attempt: 2, replay: false },
    });
    expect(engine.counts('q')).toEqual({ active: 0, scheduled: 0, locked: 1, deadLettered: 0 });
  });

  it.each([
    ['a string', 'hello'],
    ['a number', 42],
    ['null', null],
    ['an array', [1, { a: 'b' }]],
    ['bytes', Buffer.from([0, 1, 2, 255])],
    ['undefined', undefined],
  ])('round-trips %s as the body', (_label, body) => {
    const engine = engineFor();
    engine.send('q', [{ body }]);
    expect(engine.receive('q', { maxMessages: 1 })[0]?.body).toEqual(body);
  });

  it.each([
    ['a function body', { body: () => 1 }, TypeError],
    ['an invalid schedule', { body: 1, scheduledEnqueueTimeUtc: new Date(Number.NaN) }, TypeError],
    ['an object property', { body: 1, applicationProperties: { x: {} as unknown as string } }, TypeError],
    ['an empty messageId', { body: 1, messageId: '' }, TypeError],
  ])('rejects %s before writing anything', (_label, message, error) => {
    const engine = engineFor();
    expect(() => engine.send('q', [{ body: 'ok' }, message])).toThrow(error);
    expect(engine.counts('q').active).toBe(0);
  });

  it('receives in sequence order, at most maxMessages, and generates messageIds when absent', () => {
    const engine = engineFor();
    engine.send(
      'q',
      [1, 2, 3, 4, 5].map((n) => ({ body: n })),
    );
    engine.send('other', [{ body: 'x' }]);
    const first = engine.receive('q', { maxMessages: 3 });
    const rest = engine.receive('q', { maxMessages: 10 });
    expect(first.map((m) => m.body)).toEqual([1, 2, 3]);
    expect(rest.map((m) => m.body)).toEqual([4, 5]);
    const sequence = [...first, ...rest].map((m) => m.sequenceNumber);
    expect(sequence).toEqual([...sequence].sort((a, b) => a - b));
    expect(new Set([...first, ...rest].map((m) => m.messageId)).size).toBe(5);
    expect(engine.receive('q', { maxMessages: 10 })).toEqual([]);
  });

  it('redelivers a message whose lock expired, with deliveryCount 2, and refuses the stale lock token', () => {
    const engine = engineFor();
    engine.send('q', [{ body: 'work', messageId: 'm1' }]);
    const [first] = engine.receive('q', { maxMessages: 1 });
    clock += 999;
    expect(engine.receive('q', { maxMessages: 1 })).toEqual([]);
    clock += 1;
    const [second] = engine.receive('q', { maxMessages: 1 });
    expect(second).toMatchObject({ messageId: 'm1', deliveryCount: 2 });
    expect(engine.complete([first!.lockToken])).toBe(0);
    expect(engine.complete([second!.lockToken])).toBe(1);
    expect(engine.counts('q')).toEqual({ active: 0, scheduled: 0, locked: 0, deadLettered: 0 });
  });

  it('makes an abandoned message visible at once with the delivery counted', () => {
    const engine = engineFor();
    engine.send('q', [{ body: 'work' }]);
    const [first] = engine.receive('q', { maxMessages: 1 });
    expect(engine.abandon([first!.lockToken], { reason: 'boom' })).toBe(1);
    expect(engine.receive('q', { maxMessages: 1 })[0]?.deliveryCount).toBe(2);
  });

  it('takes the delivery back when abandoning with countDelivery: false', () => {
    const engine = engineFor();
    engine.send('q', [{ body: 'work' }]);
    const [first] = engine.receive('q', { maxMessages: 1 });
    expect(engine.abandon([first!.lockToken], { countDelivery: false })).toBe(1);
    expect(engine.receive('q', { maxMessages: 1 })[0]?.deliveryCount).toBe(1);
  });

  it.each([
    ['abandoned after each delivery', 'abandon'],
    ['whose lock expires each time', 'expire'],
  ] as const)('dead-letters a message %s after exactly maxDeliveryCount deliveries', (_label, failure) => {
    const engine = engineFor({ maxDeliveryCount: 3 });
    engine.send('q', [{ body: 'poison', messageId: 'p1' }]);
    const deliveries: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const [message] = engine.receive('q', { maxMessages: 1 });
      if (!message) break;
      deliveries.push(message.deliveryCount);
      if (failure === 'abandon') engine.abandon([message.lockToken], { reason: 'TypeError: boom' });
      else clock += 1_000;
    }
    expect(deliveries).toEqual([1, 2, 3]);
    expect(engine.counts('q')).toEqual({ active: 0, scheduled: 0, locked: 0, deadLettered: 1 });
    const description =
      'Message could not be consumed after 3 delivery attempts.' + (failure === 'abandon' ? ' Last error: TypeError: boom' : '');
    expect(engine.listDeadLetters('q')).toEqual([
      {
        messageId: 'p1',
        body: 'poison',
        deliveryCount: 3,
        enqueuedTimeUtc: new Date(T0),
        deadLetteredTimeUtc: new Date(clock),
        deadLetterReason: 'MaxDeliveryCountExceeded',
        deadLetterErrorDescription: description,
        sequenceNumber: expect.any(Number),
        applicationProperties: {},
      },
    ]);
  });

  it.each([
    ['inside the window', 599_999, { accepted: 0, duplicates: 1 }],
    ['after the window', 600_000, { accepted: 1, duplicates: 0 }],
  ])('treats a repeated messageId %s accordingly', (_label, later, expected) => {
    const engine = engineFor();
    expect(engine.send('q', [{ body: 1, messageId: 'dup' }])).toEqual({ accepted: 1, duplicates: 0 });
    clock += later;
    expect(engine.send('q', [{ body: 2, messageId: 'dup' }])).toEqual(expected);
  });

  it('detects duplicates inside one batch, per queue, and even after the first copy completed', () => {
    const engine = engineFor();
    expect(
      engine.send('q', [
        { body: 1, messageId: 'a' },
        { body: 2, messageId: 'a' },
      ]),
    ).toEqual({ accepted: 1, duplicates: 1 });
    expect(engine.send('other', [{ body: 3, messageId: 'a' }])).toEqual({ accepted: 1, duplicates: 0 });
    const [message] = engine.receive('q', { maxMessages: 5 });
    engine.complete([message!.lockToken]);
    expect(engine.send('q', [{ body: 4, messageId: 'a' }])).toEqual({ accepted: 0, duplicates: 1 });
  });

  it('does no duplicate detection with a zero window', () => {
    const engine = engineFor({ duplicateDetectionWindowMs: 0 });
    expect(
      engine.send('q', [
        { body: 1, messageId: 'a' },
        { body: 2, messageId: 'a' },
      ]),
    ).toEqual({ accepted: 2, duplicates: 0 });
  });

  it('keeps a scheduled message invisible until its time', () => {
    const engine = engineFor();
    engine.send('q', [{ body: 'later', scheduledEnqueueTimeUtc: new Date(T0 + 5_000) }, { body: 'now' }]);
    expect(engine.counts('q')).toEqual({ active: 1, scheduled: 1, locked: 0, deadLettered: 0 });
    const [now] = engine.receive('q', { maxMessages: 5 });
    expect(now?.body).toBe('now');
    engine.complete([now!.lockToken]);
    clock += 4_999;
    expect(engine.receive('q', { maxMessages: 5 })).toEqual([]);
    clock += 1;
    expect(engine.receive('q', { maxMessages: 5 })).toMatchObject([{ body: 'later', enqueuedTimeUtc: new Date(T0 + 5_000) }]);
  });

  it('dead-letters an expired message at receive with TTLExpiredException and fills the batch with the rest', () => {
    const engine = engineFor();
    engine.send('q', [{ body: 'short', timeToLiveMs: 100 }, { body: 'long', timeToLiveMs: 10_000 }, { body: 'forever' }]);
    clock += 100;
    expect(engine.receive('q', { maxMessages: 2 }).map((m) => m.body)).toEqual(['long', 'forever']);
    expect(engine.listDeadLetters('q')).toMatchObject([
      {
        body: 'short',
        deadLetterReason: 'TTLExpiredException',
        deadLetterErrorDescription: `Message expired at ${new Date(T0 + 100).toISOString()} before it was consumed.`,
      },
    ]);
  });

  it('dead-letters explicitly, lists with paging and replays by messageId bypassing duplicate detection', () => {
    const engine = engineFor();
    engine.send(
      'q',
      ['a', 'b', 'c'].map((id) => ({ body: id, messageId: id })),
    );
    const received = engine.receive('q', { maxMessages: 3 });
    expect(
      engine.deadLetter(
        received.map((m) => m.lockToken),
        { reason: 'Invalid', description: 'bad schema' },
      ),
    ).toBe(3);
    expect(
      engine.listDeadLetters('q', { limit: 2, offset: 1 }).map((m) => [m.messageId, m.deadLetterReason, m.deadLetterErrorDescription]),
    ).toEqual([
      ['b', 'Invalid', 'bad schema'],
      ['c', 'Invalid', 'bad schema'],
    ]);
    expect(engine.replayDeadLetters('q', { messageIds: ['a', 'c', 'zzz'] })).toBe(2);
    const replayed = engine.receive('q', { maxMessages: 5 });
    expect(replayed.map((m) => [m.messageId, m.deliveryCount])).toEqual([
      ['a', 1],
      ['c', 1],
    ]);
    expect(replayed[0]!.sequenceNumber).toBeGreaterThan(received[2]!.sequenceNumber);
    expect(engine.replayDeadLetters('q')).toBe(1);
    expect(engine.counts('q')).toEqual({ active: 1, scheduled: 0, locked: 2, deadLettered: 0 });
  });

  it('extends a lock with renewLock so it outlives the original lock duration', () => {
    const engine = engineFor();
    engine.send('q', [{ body: 'slow' }]);
    const [message] = engine.receive('q', { maxMessages: 1 });
    clock += 800;
    expect(engine.renewLock([message!.lockToken])).toEqual(new Date(T0 + 1_800));
    clock += 900;
    expect(engine.receive('q', { maxMessages: 1 })).toEqual([]);
    expect(engine.complete([message!.lockToken])).toBe(1);
  });

  it('releases the locks of one queue at once (delivery still counted), leaving scheduled messages alone', () => {
    const engine = engineFor();
    engine.send('q', [{ body: 'locked' }, { body: 'later', scheduledEnqueueTimeUtc: new Date(T0 + 5_000) }]);
    engine.send('other', [{ body: 'other' }]);
    engine.receive('q', { maxMessages: 5 });
    engine.receive('other', { maxMessages: 5 });
    expect(engine.releaseLocks('q')).toBe(1);
    expect(engine.counts('q')).toEqual({ active: 1, scheduled: 1, locked: 0, deadLettered: 0 });
    expect(engine.counts('other').locked).toBe(1);
    expect(engine.receive('q', { maxMessages: 5 }).map((m) => [m.body, m.deliveryCount])).toEqual([['locked', 2]]);
  });

  it('hands out messages released after a crash one at a time, so repeated crashes count against one message, not a batch', () => {
    const engine = engineFor({ maxDeliveryCount: 3 });
    engine.send(
      'q',
      [1, 2, 3, 4].map((n) => ({ body: n })),
    );
    // a batch of four is in flight when the process dies, twice
    for (let crash = 0; crash < 2; crash++) {
      expect(engine.receive('q', { maxMessages: 10 }).map((m) => m.body)).toEqual(crash === 0 ? [1, 2, 3, 4] : [1]);
      engine.releaseLocks('q');
    }
    // after the first crash each released message comes alone: 1 crashed twice, 2-4 once
    engine.send('q', [{ body: 5 }]);
    const single = engine.receive('q', { maxMessages: 10 });
    expect(single.map((m) => [m.body, m.deliveryCount, m.releasedAfterCrash])).toEqual([[1, 3, true]]);
    engine.releaseLocks('q'); // message 1 kills the process a third time: it alone is dead-lettered
    const next = engine.receive('q', { maxMessages: 10 });
    expect(next.map((m) => [m.body, m.deliveryCount])).toEqual([[2, 2]]);
    expect(engine.listDeadLetters('q').map((d) => [d.body, d.deadLetterReason])).toEqual([[1, 'MaxDeliveryCountExceeded']]);
    engine.complete(next.map((m) => m.lockToken));
    for (const body of [3, 4]) {
      const [m] = engine.receive('q', { maxMessages: 10 });
      expect([m!.body, m!.releasedAfterCrash]).toEqual([body, true]);
      engine.complete([m!.lockToken]);
    }
    // the message sent after the crashes was never released: it comes in an ordinary batch again
    expect(engine.receive('q', { maxMessages: 10 }).map((m) => [m.body, m.releasedAfterCrash])).toEqual([[5, undefined]]);
  });

  it('keeps an ordinary batch before a released message, and the released one for the next receive', () => {
    const engine = engineFor();
    engine.send('q', [{ body: 'crashed' }]);
    engine.receive('q', { maxMessages: 1 });
    engine.releaseLocks('q');
    engine.send('q', [{ body: 'a' }, { body: 'b' }]);
    expect(engine.receive('q', { maxMessages: 10 }).map((m) => m.body)).toEqual(['crashed']);
  });

  it('settles completions and abandons in one call, reporting lost locks', () => {
    const engine = engineFor();
    engine.send(
      'q',
      [1, 2, 3].map((n) => ({ body: n })),
    );
    const [a, b, c] = engine.receive('q', { maxMessages: 3 });
    expect(engine.settle({ complete: [a!.lockToken, 'nope'], abandon: [{ lockToken: b!.lockToken, reason: 'x' }] })).toEqual({
      completed: 1,
      abandoned: 1,
      deadLettered: 0,
      lockLost: 1,
    });
    expect(engine.counts('q')).toEqual({ active: 1, scheduled: 0, locked: 1, deadLettered: 0 });
    expect(c).toBeDefined();
  });

  it('notifies listeners when messages become visible, not for scheduled ones', () => {
    const engine = engineFor();
    const woken: string[] = [];
    const off = engine.onMessagesAvailable('q', () => woken.push('q'));
    engine.send('q', [{ body: 1, scheduledEnqueueTimeUtc: new Date(T0 + 1_000) }]);
    engine.send('other', [{ body: 1 }]);
    expect(woken).toEqual([]);
    engine.send('q', [{ body: 2 }]);
    const [m] = engine.receive('q', { maxMessages: 1 });
    engine.abandon([m!.lockToken]);
    off();
    engine.send('q', [{ body: 3 }]);
    expect(woken).toEqual(['q', 'q']);
  });

  it('joins a caller transaction: a rolled-back send leaves nothing', () => {
    const engine = engineFor();
    const write = temp.db.transaction(() => {
      engine.send('q', [{ body: 1, messageId: 'x' }]);
      throw new Error('caller failed');
    });
    expect(() => write()).toThrow('caller failed');
    expect(engine.counts('q').active).toBe(0);
    expect(engine.send('q', [{ body: 1, messageId: 'x' }])).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('keeps messages, locks, dead letters, dedup and growing sequence numbers across a restart', () => {
    let engine = engineFor({ maxDeliveryCount: 1 });
    engine.send('q', [{ body: 'pending', messageId: 'p' }, { body: 'locked' }, { body: 'dead' }]);
    const [pending, locked, dead] = engine.receive('q', { maxMessages: 3 });
    engine.abandon([dead!.lockToken]);
    engine.abandon([pending!.lockToken], { countDelivery: false });
    temp.reopen();
    engine = engineFor({ maxDeliveryCount: 1 });
    expect(engine.counts('q')).toEqual({ active: 1, scheduled: 0, locked: 1, deadLettered: 1 });
    expect(engine.send('q', [{ body: 'again', messageId: 'p' }]).duplicates).toBe(1);
    clock += 1_000;
    const after = engine.receive('q', { maxMessages: 5 });
    expect(after.map((m) => m.body)).toEqual(['pending']);
    expect(engine.listDeadLetters('q').map((m) => m.body)).toEqual(['locked', 'dead']);
    engine.complete(after.map((m) => m.lockToken));
    engine.send('q', [{ body: 'next' }]);
    expect(engine.receive('q', { maxMessages: 1 })[0]!.sequenceNumber).toBeGreaterThan(locked!.sequenceNumber);
  });

  it.each([
    ['lockDurationMs', { lockDurationMs: 0 }],
    ['maxDeliveryCount', { maxDeliveryCount: 1.5 }],
    ['duplicateDetectionWindowMs', { duplicateDetectionWindowMs: -1 }],
  ])('rejects a bad %s option', (name, options) => {
    expect(() => engineFor(options)).toThrow(name);
  });
});
