import type { SqliteQueueEngine } from '../../host/index.js';
import type { QueueMessage, QueuePort } from '../../ports/index.js';

/** The queue port on the embedded SQLite queues: one transaction per send, duplicates dropped by messageId. */
export class EmbeddedQueuePort implements QueuePort {
  constructor(private readonly engine: SqliteQueueEngine) {}

  async sendMessages<T>(queueName: string, messages: readonly QueueMessage<T>[]): Promise<{ accepted: number; duplicates: number }> {
    if (messages.length === 0) return { accepted: 0, duplicates: 0 };
    return this.engine.send(
      queueName,
      messages.map((m) => ({
        body: m.body,
        messageId: m.messageId,
        ...(m.correlationId ? { correlationId: m.correlationId } : {}),
        ...(m.applicationProperties ? { applicationProperties: m.applicationProperties } : {}),
        ...(m.scheduledEnqueueTimeUtc ? { scheduledEnqueueTimeUtc: m.scheduledEnqueueTimeUtc } : {}),
      })),
    );
  }
}
