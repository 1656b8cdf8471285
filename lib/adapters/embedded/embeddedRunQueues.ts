import type { SqliteQueueEngine } from '../../host/index.js';
import type { PoisonMessage, RunQueueCounts, RunQueuesPort } from '../../ports/index.js';

/** RunQueuesPort on the embedded SQLite queues (messages carry the run id as their correlation id). */
export class EmbeddedRunQueues implements RunQueuesPort {
  constructor(private readonly engine: SqliteQueueEngine) {}

  async runQueueCounts(runId: string, queueNames: readonly string[]): Promise<RunQueueCounts> {
    const counts: RunQueueCounts = { waiting: 0, scheduled: 0, dead_lettered: 0, last_dead_letter: null };
    for (const queue of queueNames) {
      const c = this.engine.correlationCounts(queue, runId);
      counts.waiting += c.waiting;
      counts.scheduled += c.scheduled;
      counts.dead_lettered += c.deadLettered;
      if (c.lastDeadLetter && (!counts.last_dead_letter || c.lastDeadLetter.at.toISOString() > counts.last_dead_letter.at)) {
        counts.last_dead_letter = {
          reason: c.lastDeadLetter.reason,
          description: c.lastDeadLetter.description,
          at: c.lastDeadLetter.at.toISOString(),
        };
      }
    }
    return counts;
  }

  async deadLetterMessages(queueName: string, messages: readonly PoisonMessage[]): Promise<number> {
    if (messages.length === 0) return 0;
    return this.engine.deadLetterMessages(
      queueName,
      messages.map((m) => ({
        messageId: m.messageId,
        body: m.body,
        ...(m.correlationId ? { correlationId: m.correlationId } : {}),
        ...(m.applicationProperties ? { applicationProperties: m.applicationProperties } : {}),
        reason: m.reason,
        description: m.description,
        ...(m.deliveryCount !== undefined ? { deliveryCount: m.deliveryCount } : {}),
      })),
    );
  }
}
