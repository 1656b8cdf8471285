import type { SqliteQueueEngine } from '../../host/index.js';
import type { QueueMessage, QueuePort } from '../../ports/index.js';
import type { RunPriority } from '../../domain/index.js';

/** Run priorities as the engine's receive priorities (higher first; each step is worth the engine's priorityAgingMs). */
export const ENGINE_PRIORITY = { high: 1, normal: 0, low: -1 } as const satisfies Record<RunPriority, number>;

/**
 * The queue port on the embedded SQLite queues: one transaction per send, duplicates dropped by messageId. A run's
 * priority stays in the one queue, as the engine's receive priority (not a `-high` / `-low` queue as on Service Bus).
 */
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
        ...(m.priority && m.priority !== 'normal' ? { priority: ENGINE_PRIORITY[m.priority] } : {}),
      })),
    );
  }
}
