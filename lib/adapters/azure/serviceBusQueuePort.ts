import { priorityQueueName, type QueueMessage, type QueuePort } from '../../ports/index.js';
import { toServiceBusMessage } from './serviceBusMessages.js';
import type { SbClient, SbMessage, SbSender } from './serviceBusSurface.js';

/** Thrown when one message alone exceeds the batch size limit (256 KB on Standard, 1 MB+ on Premium). */
export class MessageTooLargeError extends Error {
  override readonly name = 'MessageTooLargeError';
  constructor(
    readonly queueName: string,
    readonly messageId: string,
    readonly maxSizeInBytes: number,
  ) {
    super(`message ${messageId} does not fit in a Service Bus batch for queue ${queueName} (limit ${maxSizeInBytes} bytes)`);
  }
}

export interface ServiceBusQueuePortOptions {
  /** scheduled messages are sent with scheduleMessages in groups of this many per call (default 100) */
  scheduleChunkSize?: number;
  /** clock for deciding which messages are still in the future (tests) */
  now?: () => number;
}

/**
 * The queue port on Azure Service Bus. Immediate messages go out through `createMessageBatch`: fill the batch
 * until `tryAddMessage` refuses, send it, start a new one (never one message per send). Messages with a future
 * `scheduledEnqueueTimeUtc` go through `scheduleMessages`, grouped by time. One sender per queue, kept open.
 * Duplicate detection is the queue's (messageId); Service Bus does not say which sends were duplicates, so
 * `duplicates` is always 0 and `accepted` counts what was sent. Service Bus has no message priority: a message with
 * `priority` high or low goes to the queue's `-high` / `-low` sibling (priorityQueueName), each with its own trigger.
 */
export class ServiceBusQueuePort implements QueuePort {
  private readonly senders = new Map<string, SbSender>();
  private readonly scheduleChunkSize: number;
  private readonly now: () => number;

  constructor(
    private readonly client: SbClient,
    options: ServiceBusQueuePortOptions = {},
  ) {
    this.scheduleChunkSize = options.scheduleChunkSize ?? 100;
    this.now = options.now ?? Date.now;
  }

  async sendMessages<T>(queueName: string, messages: readonly QueueMessage<T>[]): Promise<{ accepted: number; duplicates: number }> {
    if (messages.length === 0) return { accepted: 0, duplicates: 0 };
    const byQueue = new Map<string, QueueMessage<T>[]>();
    for (const m of messages) {
      const target = priorityQueueName(queueName, m.priority);
      byQueue.set(target, [...(byQueue.get(target) ?? []), m]);
    }
    for (const [target, group] of byQueue) await this.sendToQueue(target, group);
    return { accepted: messages.length, duplicates: 0 };
  }

  private async sendToQueue<T>(queueName: string, messages: readonly QueueMessage<T>[]): Promise<void> {
    const sender = this.senderFor(queueName);
    const now = this.now();
    const immediate: QueueMessage<T>[] = [];
    const scheduled = new Map<number, SbMessage[]>();
    for (const m of messages) {
      const at = m.scheduledEnqueueTimeUtc?.getTime();
      if (at === undefined || at <= now) immediate.push(m);
      else scheduled.set(at, [...(scheduled.get(at) ?? []), toServiceBusMessage(m)]);
    }
    await this.sendBatched(queueName, sender, immediate);
    for (const [at, group] of scheduled) {
      for (let i = 0; i < group.length; i += this.scheduleChunkSize) {
        await sender.scheduleMessages(group.slice(i, i + this.scheduleChunkSize), new Date(at));
      }
    }
  }

  /** Closes the senders (not the client, which the caller owns). */
  async close(): Promise<void> {
    const senders = [...this.senders.values()];
    this.senders.clear();
    await Promise.all(senders.map((s) => s.close()));
  }

  private async sendBatched<T>(queueName: string, sender: SbSender, messages: readonly QueueMessage<T>[]): Promise<void> {
    if (messages.length === 0) return;
    let batch = await sender.createMessageBatch();
    for (const m of messages) {
      const message = toServiceBusMessage(m);
      if (batch.tryAddMessage(message)) continue;
      if (batch.count === 0) throw new MessageTooLargeError(queueName, m.messageId, batch.maxSizeInBytes);
      await sender.sendMessages(batch);
      batch = await sender.createMessageBatch();
      if (!batch.tryAddMessage(message)) throw new MessageTooLargeError(queueName, m.messageId, batch.maxSizeInBytes);
    }
    if (batch.count > 0) await sender.sendMessages(batch);
  }

  private senderFor(queueName: string): SbSender {
    let sender = this.senders.get(queueName);
    if (!sender) {
      sender = this.client.createSender(queueName);
      this.senders.set(queueName, sender);
    }
    return sender;
  }
}
