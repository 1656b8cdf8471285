import { setTimeout as sleep } from 'node:timers/promises';
import type { InvocationContext } from '@azure/functions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionRegistration } from '../registration.js';
import { SqliteQueueEngine } from './queueEngine.js';
import { QueueTriggerHost, type QueueTriggerHostOptions } from './queueTriggerHost.js';
import { queueRegistration, TempDatabase, testInvoke, waitUntil } from './testSupport.js';
import type { QueueEngineOptions } from './types.js';

describe('QueueTriggerHost', () => {
  let temp: TempDatabase;
  let hosts: QueueTriggerHost[];

  beforeEach(() => {
    temp = new TempDatabase();
    hosts = [];
  });
  afterEach(async () => {
    await Promise.all(hosts.map((h) => h.stop({ timeoutInMs: 0 })));
    temp.dispose();
  });

  function setup(registrations: FunctionRegistration[], options: QueueTriggerHostOptions = {}, engineOptions: QueueEngineOptions = {}) {
    const engine = new SqliteQueueEngine(temp.db, engineOptions);
    const host = new QueueTriggerHost(engine, testInvoke, { pollIntervalMs: 10, ...options });
    for (const r of registrations) host.add(r);
    hosts.push(host);
    return { engine, host };
  }

  it("passes a 'one' message body and Azure's trigger metadata, then completes it", async () => {
    const calls: Array<{ input: unknown; metadata: unknown }> = [];
    const reg = queueRegistration('work', 'q', (input, ctx: InvocationContext) => {
      calls.push({ input, metadata: ctx.triggerMetadata });
    });
    const { engine, host } = setup([reg]);
    engine.send('q', [{ body: { n: 1 }, messageId: 'm1', correlationId: 'c', subject: 's', applicationProperties: { a: 1 } }]);
    host.start();
    await waitUntil(() => calls.length === 1 && engine.counts('q').locked === 0);
    expect(calls).toEqual([
      {
        input: { n: 1 },
        metadata: {
          messageId: 'm1',
          deliveryCount: 1,
          enqueuedTimeUtc: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          lockToken: expect.any(String),
          sequenceNumber: expect.any(Number),
          applicationProperties: { a: 1 },
          correlationId: 'c',
          subject: 's',
        },
      },
    ]);
    expect(engine.counts('q')).toEqual({ active: 0, scheduled: 0, locked: 0, deadLettered: 0 });
  });

  it("delivers 'many' batches of at most maxMessageBatchSize with the ...Array metadata", async () => {
    const batches: Array<{ input: unknown[]; metadata: Record<string, unknown> }> = [];
    const reg = queueRegistration(
      'batch',
      'q',
      (input, ctx: InvocationContext) => {
        batches.push({ input: input as unknown[], metadata: ctx.triggerMetadata ?? {} });
      },
      'many',
    );
    const { engine, host } = setup([reg], { queues: { q: { maxMessageBatchSize: 4 } } });
    engine.send(
      'q',
      Array.from({ length: 10 }, (_, i) => ({ body: i, messageId: `m${i}`, ...(i === 0 ? { subject: 'first' } : {}) })),
    );
    host.start();
    await waitUntil(() => batches.flatMap((b) => b.input).length === 10 && engine.counts('q').locked === 0);
    expect(batches.map((b) => b.input)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9],
    ]);
    expect(batches[0]!.metadata).toEqual({
      messageIdArray: ['m0', 'm1', 'm2', 'm3'],
      deliveryCountArray: [1, 1, 1, 1],
      enqueuedTimeUtcArray: Array(4).fill(expect.any(String)),
      lockTokenArray: Array(4).fill(expect.any(String)),
      sequenceNumberArray: Array(4).fill(expect.any(Number)),
      applicationPropertiesArray: [{}, {}, {}, {}],
      correlationIdArray: [null, null, null, null],
      subjectArray: ['first', null, null, null],
      expiresAtUtcArray: [null, null, null, null],
    });
    expect(engine.counts('q').active).toBe(0);
  });

  it("abandons the whole 'many' batch when the function throws", async () => {
    const deliveries: unknown[] = [];
    const reg = queueRegistration(
      'batch',
      'q',
      (_input, ctx: InvocationContext) => {
        deliveries.push(ctx.triggerMetadata?.deliveryCountArray);
        if (deliveries.length === 1) throw new Error('first batch fails');
      },
      'many',
    );
    const { engine, host } = setup([reg]);
    engine.send('q', [{ body: 1 }, { body: 2 }, { body: 3 }]);
    host.start();
    await waitUntil(() => deliveries.length === 2 && engine.counts('q').locked === 0);
    expect(deliveries).toEqual([
      [1, 1, 1],
      [2, 2, 2],
    ]);
  });

  it.each([
    ['one', 1, { maxConcurrentCalls: 3 }, 3],
    ['many', 2, { maxConcurrentBatches: 2, maxMessageBatchSize: 2 }, 2],
  ] as const)("keeps a '%s' trigger at its concurrency limit", async (cardinality, perUnit, settings, limit) => {
    let running = 0;
    let maxRunning = 0;
    let processed = 0;
    const reg = queueRegistration(
      'slow',
      'q',
      async (input) => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await sleep(15);
        running -= 1;
        processed += Array.isArray(input) ? input.length : 1;
      },
      cardinality,
    );
    const { engine, host } = setup([reg], { queues: { q: settings } });
    engine.send(
      'q',
      Array.from({ length: 12 * perUnit }, (_, i) => ({ body: i })),
    );
    host.start();
    await waitUntil(() => processed === 12 * perUnit);
    expect(maxRunning).toBe(limit);
  });

  it('dead-letters a message that always fails after exactly maxDeliveryCount invocations', async () => {
    let invocations = 0;
    const reg = queueRegistration('poison', 'q', () => {
      invocations += 1;
      throw new RangeError('never works');
    });
    const { engine, host } = setup([reg], {}, { maxDeliveryCount: 4 });
    engine.send('q', [{ body: 'x', messageId: 'poison-1' }]);
    host.start();
    await waitUntil(() => engine.counts('q').deadLettered === 1);
    await sleep(50);
    expect(invocations).toBe(4);
    expect(engine.listDeadLetters('q')).toMatchObject([
      {
        messageId: 'poison-1',
        deliveryCount: 4,
        deadLetterReason: 'MaxDeliveryCountExceeded',
        deadLetterErrorDescription: 'Message could not be consumed after 4 delivery attempts. Last error: RangeError: never works',
      },
    ]);
  });

  it('wakes up at once on an in-process send even with a long poll interval', async () => {
    let receivedAt = 0;
    const reg = queueRegistration('fast', 'q', () => {
      receivedAt = Date.now();
    });
    const { engine, host } = setup([reg], { pollIntervalMs: 10_000 });
    host.start();
    await sleep(20);
    const sentAt = Date.now();
    engine.send('q', [{ body: 1 }]);
    await waitUntil(() => receivedAt > 0, 2_000);
    expect(receivedAt - sentAt).toBeLessThan(200);
  });

  it('renews the lock of a long single-message invocation so it is not redelivered', async () => {
    let invocations = 0;
    const reg = queueRegistration('long', 'q', async () => {
      invocations += 1;
      await sleep(900);
    });
    const { engine, host } = setup([reg], { queues: { q: { lockDurationMs: 300 } } });
    engine.send('q', [{ body: 1 }]);
    host.start();
    await waitUntil(() => invocations === 1);
    await sleep(600);
    expect(engine.counts('q')).toEqual({ active: 0, scheduled: 0, locked: 1, deadLettered: 0 });
    await waitUntil(() => engine.counts('q').locked === 0);
    expect(invocations).toBe(1);
  });

  it('on stop finishes quick invocations and gives back slow ones without counting the delivery', async () => {
    const started: unknown[] = [];
    const reg = queueRegistration('mixed', 'q', async (input) => {
      started.push(input);
      await sleep(input === 'slow' ? 2_000 : 20);
    });
    const { engine, host } = setup([reg]);
    engine.send('q', [{ body: 'slow' }, { body: 'quick' }]);
    host.start();
    await waitUntil(() => started.length === 2);
    await host.stop({ timeoutInMs: 200 });
    expect(engine.counts('q')).toEqual({ active: 1, scheduled: 0, locked: 0, deadLettered: 0 });
    expect(engine.receive('q', { maxMessages: 5 }).map((m) => [m.body, m.deliveryCount])).toEqual([['slow', 1]]);
  });

  it('resumes pending messages after a restart (database closed and reopened, new engine and host)', async () => {
    const seen = new Map<number, number>();
    let generation = 1;
    const handler = async (input: unknown) => {
      const mine = generation;
      while (generation === 1 && (input as number) >= 30) await sleep(5);
      if (mine !== generation) throw new Error('this host was stopped (and its database closed)');
      seen.set(input as number, (seen.get(input as number) ?? 0) + 1);
    };
    let { engine, host } = setup([queueRegistration('work', 'q', handler)], { queues: { q: { maxConcurrentCalls: 4 } } });
    engine.send(
      'q',
      Array.from({ length: 100 }, (_, i) => ({ body: i, messageId: `m${i}` })),
    );
    host.start();
    await waitUntil(() => seen.size === 30);
    await host.stop({ timeoutInMs: 10 });
    generation = 2;
    temp.reopen();
    ({ engine, host } = setup([queueRegistration('work', 'q', handler)], { queues: { q: { maxConcurrentCalls: 4 } } }));
    expect(engine.counts('q')).toEqual({ active: 70, scheduled: 0, locked: 0, deadLettered: 0 });
    host.start();
    await waitUntil(() => engine.counts('q').active + engine.counts('q').locked === 0);
    expect([...seen.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });

  it('redelivers at once, on start, a message left locked by a crashed process', async () => {
    const deliveries: unknown[] = [];
    const crashed = new SqliteQueueEngine(temp.db);
    crashed.send('q', [{ body: 'in flight at crash' }]);
    crashed.receive('q', { maxMessages: 1 });
    temp.reopen();
    const { engine, host } = setup([
      queueRegistration('work', 'q', (_input, ctx: InvocationContext) => {
        deliveries.push(ctx.triggerMetadata?.deliveryCount);
      }),
    ]);
    host.start();
    await waitUntil(() => deliveries.length === 1 && engine.counts('q').locked === 0, 2_000);
    expect(deliveries).toEqual([2]);
  });

  it.each([
    ['a trigger of another kind', { kind: 'httpTrigger' }, 'not a serviceBusTrigger'],
    ['a topic subscription', { trigger: { topicName: 't' } }, 'topic subscriptions'],
    ['sessions', { trigger: { isSessionsEnabled: true } }, 'sessions'],
    ['sdkBinding', { trigger: { sdkBinding: true } }, 'sdkBinding'],
    ['a missing queueName', { trigger: { queueName: undefined } }, 'queueName'],
    ['an unknown cardinality', { trigger: { cardinality: 'all' } }, 'cardinality'],
  ] as const)('rejects a registration with %s', (_label, change, message) => {
    const base = queueRegistration('f', 'q', () => undefined);
    const reg = {
      ...base,
      ...('kind' in change ? { kind: change.kind } : {}),
      trigger: { ...base.trigger, ...('trigger' in change ? change.trigger : {}) },
    } as FunctionRegistration;
    const { host } = setup([]);
    expect(() => host.add(reg)).toThrow(message);
  });

  it('rejects a duplicate function name and bad queue settings', () => {
    const { host } = setup([queueRegistration('f', 'q', () => undefined)]);
    expect(() => host.add(queueRegistration('f', 'q2', () => undefined))).toThrow('already registered');
    const bad = setup([], { queues: { q: { maxConcurrentCalls: 0 } } }).host;
    expect(() => bad.add(queueRegistration('g', 'q', () => undefined))).toThrow('maxConcurrentCalls');
  });

  describe('minMessageBatchSize / maxBatchWaitTimeMs / per-queue maxDeliveryCount', () => {
    it("gathers a 'many' batch until minMessageBatchSize messages are in", async () => {
      const batches: unknown[][] = [];
      const reg = queueRegistration('gather', 'g', (input) => void batches.push(input as unknown[]), 'many');
      const { engine, host } = setup([reg], { queues: { g: { minMessageBatchSize: 5, maxBatchWaitTimeMs: 10_000 } } });
      host.start();
      engine.send(
        'g',
        [1, 2, 3].map((n) => ({ body: n })),
      );
      await sleep(150);
      expect(batches).toEqual([]);
      engine.send(
        'g',
        [4, 5].map((n) => ({ body: n })),
      );
      await waitUntil(() => batches.length === 1);
      expect(batches).toEqual([[1, 2, 3, 4, 5]]);
    });

    it('runs messages released after a crash one per invocation, without gathering, then batches again', async () => {
      const batches: unknown[][] = [];
      const reg = queueRegistration('gather', 'g', (input) => void batches.push(input as unknown[]), 'many');
      const { engine, host } = setup([reg], { queues: { g: { minMessageBatchSize: 5, maxBatchWaitTimeMs: 10_000 } } });
      engine.send(
        'g',
        [1, 2, 3].map((n) => ({ body: n })),
      );
      engine.receive('g', { maxMessages: 3 }); // a process had them locked when it died
      engine.releaseLocks('g');
      host.start();
      await waitUntil(() => batches.length === 3);
      expect(batches).toEqual([[1], [2], [3]]);
      engine.send(
        'g',
        [4, 5, 6, 7, 8].map((n) => ({ body: n })),
      );
      await waitUntil(() => batches.length === 4);
      expect(batches[3]).toEqual([4, 5, 6, 7, 8]);
    });

    it('invokes a partial batch once maxBatchWaitTimeMs has passed', async () => {
      const batches: Array<{ at: number; input: unknown[] }> = [];
      const reg = queueRegistration('gather', 'g', (input) => void batches.push({ at: Date.now(), input: input as unknown[] }), 'many');
      const { engine, host } = setup([reg], { queues: { g: { minMessageBatchSize: 5, maxBatchWaitTimeMs: 300 } } });
      host.start();
      const sent = Date.now();
      engine.send(
        'g',
        [1, 2].map((n) => ({ body: n })),
      );
      await waitUntil(() => batches.length === 1);
      expect(batches[0]!.input).toEqual([1, 2]);
      expect(batches[0]!.at - sent).toBeGreaterThanOrEqual(290);
    });

    it('gives gathered messages back on stop, without counting a delivery', async () => {
      const reg = queueRegistration('gather', 'g', () => undefined, 'many');
      const { engine, host } = setup([reg], { queues: { g: { minMessageBatchSize: 5, maxBatchWaitTimeMs: 10_000 } } });
      host.start();
      engine.send('g', [{ body: 1 }]);
      await waitUntil(() => engine.counts('g').locked === 1);
      await host.stop({ timeoutInMs: 0 });
      expect(engine.counts('g')).toEqual({ active: 1, scheduled: 0, locked: 0, deadLettered: 0 });
      expect(engine.receive('g', { maxMessages: 1 })[0]!.deliveryCount).toBe(1);
    });

    it('rejects a batch wait that outlives the lock, and a minimum above the maximum', () => {
      const reg = queueRegistration('gather', 'g', () => undefined, 'many');
      expect(() => setup([reg], { queues: { g: { minMessageBatchSize: 5, maxBatchWaitTimeMs: 60_000, lockDurationMs: 30_000 } } })).toThrow(
        /shorter than the lock duration/,
      );
      expect(() => setup([reg], { queues: { g: { minMessageBatchSize: 50, maxMessageBatchSize: 10 } } })).toThrow(
        /must not exceed maxMessageBatchSize/,
      );
    });

    it("dead-letters after the queue's own maxDeliveryCount; other queues keep the engine default", async () => {
      const attempts = { strict: 0, lenient: 0 };
      const strict = queueRegistration('strict', 'strict', () => {
        attempts.strict++;
        throw new Error('always');
      });
      const lenient = queueRegistration('lenient', 'lenient', () => {
        attempts.lenient++;
        throw new Error('always');
      });
      const { engine, host } = setup([strict, lenient], {}, { maxDeliveryCount: 4, maxDeliveryCountByQueue: { strict: 2 } });
      engine.send('strict', [{ body: 's' }]);
      engine.send('lenient', [{ body: 'l' }]);
      host.start();
      await waitUntil(() => engine.counts('strict').deadLettered === 1 && engine.counts('lenient').deadLettered === 1);
      expect(attempts).toEqual({ strict: 2, lenient: 4 });
      expect(engine.maxDeliveryCountOf('strict')).toBe(2);
      expect(engine.maxDeliveryCountOf('other')).toBe(4);
    });
  });
});
