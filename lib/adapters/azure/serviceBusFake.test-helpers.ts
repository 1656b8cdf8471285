import { randomUUID } from 'node:crypto';
import type {
  SbClient,
  SbMessage,
  SbMessageBatch,
  SbReceivedMessage,
  SbReceiver,
  SbReceiverOptions,
  SbSender,
} from './serviceBusSurface.js';

/**
 * Test support, and the one place a fake is acceptable (no Service Bus emulator installs from npm): an in-memory
 * implementation of the small ServiceBusClient surface the adapters use (serviceBusSurface.ts), with the broker
 * behaviour they rely on: batches with a byte limit, duplicate detection by messageId, scheduled messages,
 * peek-lock with settlement, dead-letter sub-queues, peek with a cursor. Every broker call is recorded.
 */
export interface FakeCall {
  op: 'sendBatch' | 'sendMessages' | 'scheduleMessages' | 'complete' | 'abandon' | 'peek' | 'receive';
  queue: string;
  count: number;
  subQueue?: 'deadLetter';
  scheduledAt?: string;
}

interface Stored {
  message: SbMessage;
  messageId: string;
  sequenceNumber: number;
  enqueuedTimeUtc: Date;
  deliveryCount: number;
  lockedBy?: string;
  visibleAt?: number;
  deadLetterReason?: string;
  deadLetterErrorDescription?: string;
}

interface Entity {
  active: Stored[];
  deadLetter: Stored[];
  seenIds: Set<string>;
}

export class FakeServiceBus implements SbClient {
  readonly calls: FakeCall[] = [];
  private readonly entities = new Map<string, Entity>();
  private sequence = 0;

  constructor(readonly options: { maxBatchSizeInBytes?: number; duplicateDetection?: boolean; now?: () => number } = {}) {}

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  entity(queue: string): Entity {
    let e = this.entities.get(queue);
    if (!e) {
      e = { active: [], deadLetter: [], seenIds: new Set() };
      this.entities.set(queue, e);
    }
    return e;
  }

  /** Messages now in the main queue (scheduled ones included), oldest first. */
  activeMessages(queue: string): Array<SbMessage & { sequenceNumber: number; scheduledAt?: number }> {
    return this.entity(queue).active.map((s) => ({
      ...s.message,
      sequenceNumber: s.sequenceNumber,
      ...(s.visibleAt ? { scheduledAt: s.visibleAt } : {}),
    }));
  }

  /** Puts messages straight into a queue's dead-letter sub-queue (test setup). */
  seedDeadLetters(queue: string, messages: SbMessage[], reason: { reason: string; description: string }): void {
    for (const message of messages) {
      this.entity(queue).deadLetter.push({
        ...this.stored(message),
        deliveryCount: 10,
        deadLetterReason: reason.reason,
        deadLetterErrorDescription: reason.description,
      });
    }
  }

  deadLetterCount(queue: string): number {
    return this.entity(queue).deadLetter.length;
  }

  enqueue(queue: string, message: SbMessage, visibleAt?: number): void {
    const entity = this.entity(queue);
    const id = String(message.messageId ?? randomUUID());
    if (this.options.duplicateDetection !== false && message.messageId !== undefined) {
      if (entity.seenIds.has(id)) return; // dropped silently, as Service Bus does
      entity.seenIds.add(id);
    }
    entity.active.push({ ...this.stored(message), ...(visibleAt ? { visibleAt } : {}) });
  }

  private stored(message: SbMessage): Stored {
    return {
      message: structuredClone(message),
      messageId: String(message.messageId ?? randomUUID()),
      sequenceNumber: ++this.sequence,
      enqueuedTimeUtc: new Date(this.now),
      deliveryCount: 0,
    };
  }

  createSender(queueName: string): SbSender {
    const bus = this;
    const maxSizeInBytes = this.options.maxBatchSizeInBytes ?? 256 * 1024;
    return {
      async createMessageBatch(): Promise<SbMessageBatch> {
        return new FakeBatch(maxSizeInBytes);
      },
      async sendMessages(messages) {
        if (messages instanceof FakeBatch) {
          bus.calls.push({ op: 'sendBatch', queue: queueName, count: messages.count });
          for (const m of messages.messages) bus.enqueue(queueName, m);
          return;
        }
        const list = Array.isArray(messages) ? messages : [messages as SbMessage];
        bus.calls.push({ op: 'sendMessages', queue: queueName, count: list.length });
        for (const m of list) bus.enqueue(queueName, m);
      },
      async scheduleMessages(messages, at) {
        bus.calls.push({ op: 'scheduleMessages', queue: queueName, count: messages.length, scheduledAt: at.toISOString() });
        for (const m of messages) bus.enqueue(queueName, m, at.getTime());
        return messages.map(() => bus.sequence);
      },
      async close() {},
    };
  }

  createReceiver(queueName: string, options: SbReceiverOptions = {}): SbReceiver {
    const bus = this;
    const receiverId = randomUUID();
    const sub = options.subQueueType;
    const list = () => (sub === 'deadLetter' ? bus.entity(queueName).deadLetter : bus.entity(queueName).active);
    let peekCursor = 0;
    const view = (s: Stored): SbReceivedMessage => ({
      ...structuredClone(s.message),
      messageId: s.messageId,
      sequenceNumber: s.sequenceNumber,
      deliveryCount: s.deliveryCount,
      enqueuedTimeUtc: s.enqueuedTimeUtc,
      state: s.visibleAt !== undefined && s.visibleAt > bus.now ? 'scheduled' : 'active',
      ...(s.deadLetterReason === undefined
        ? {}
        : { deadLetterReason: s.deadLetterReason, deadLetterErrorDescription: s.deadLetterErrorDescription ?? '' }),
    });
    const find = (m: SbReceivedMessage) =>
      list().findIndex((s) => s.sequenceNumber === Number(m.sequenceNumber?.toString()) && s.lockedBy === receiverId);
    return {
      async peekMessages(max) {
        const page = list()
          .filter((s) => s.sequenceNumber > peekCursor)
          .slice(0, max);
        if (page.length) peekCursor = page[page.length - 1]!.sequenceNumber;
        bus.calls.push({ op: 'peek', queue: queueName, count: page.length, ...(sub ? { subQueue: sub } : {}) });
        return page.map(view);
      },
      async receiveMessages(max) {
        const now = bus.now;
        const page = list()
          .filter((s) => !s.lockedBy && (s.visibleAt === undefined || s.visibleAt <= now))
          .slice(0, max);
        for (const s of page) {
          s.lockedBy = receiverId;
          s.deliveryCount++;
        }
        if (options.receiveMode === 'receiveAndDelete') for (const s of page) list().splice(list().indexOf(s), 1);
        bus.calls.push({ op: 'receive', queue: queueName, count: page.length, ...(sub ? { subQueue: sub } : {}) });
        return page.map(view);
      },
      async completeMessage(m) {
        const at = find(m);
        if (at < 0) throw new Error(`MessageLockLost: ${String(m.messageId)}`);
        list().splice(at, 1);
        bus.calls.push({ op: 'complete', queue: queueName, count: 1, ...(sub ? { subQueue: sub } : {}) });
      },
      async abandonMessage(m) {
        const at = find(m);
        if (at < 0) throw new Error(`MessageLockLost: ${String(m.messageId)}`);
        delete list()[at]!.lockedBy;
        bus.calls.push({ op: 'abandon', queue: queueName, count: 1, ...(sub ? { subQueue: sub } : {}) });
      },
      async close() {
        for (const s of list()) if (s.lockedBy === receiverId) delete s.lockedBy;
      },
    };
  }

  async close(): Promise<void> {}
}

class FakeBatch implements SbMessageBatch {
  readonly messages: SbMessage[] = [];
  sizeInBytes = 0;
  constructor(readonly maxSizeInBytes: number) {}

  get count(): number {
    return this.messages.length;
  }

  tryAddMessage(message: SbMessage): boolean {
    const size = Buffer.byteLength(JSON.stringify(message)) + 64;
    if (this.sizeInBytes + size > this.maxSizeInBytes) return false;
    this.sizeInBytes += size;
    this.messages.push(message);
    return true;
  }
}
