import { sampleAlert } from '../../ports/contracts/alertStore.contract.js';
import type { QueueMessage, QueuePort } from '../../ports/index.js';
import type { NotificationMessage } from './notificationQueue.js';

/** The fixed "now" of the notification tests, and a clock that always says it. */
export const NOW = new Date('2026-03-01T12:00:00.000Z');
export const clock = { now: () => NOW };

/** A queue that records what is sent to it, with the queue's name; a message id it already has is a duplicate (as Service Bus duplicate detection). */
export class RecordingQueue implements QueuePort {
  readonly sent: Array<{ queue: string; message: QueueMessage<NotificationMessage> }> = [];
  private readonly ids = new Set<string>();
  async sendMessages<T>(queue: string, messages: readonly QueueMessage<T>[]) {
    let accepted = 0;
    for (const m of messages) {
      if (this.ids.has(m.messageId)) continue;
      this.ids.add(m.messageId);
      this.sent.push({ queue, message: m as unknown as QueueMessage<NotificationMessage> });
      accepted++;
    }
    return { accepted, duplicates: messages.length - accepted };
  }
}

/** A critical accuracy regression of run-b (refunds dropped 29.8 points), the alert the delivery tests notify about. */
export const CRITICAL = sampleAlert('run-b', 'accuracy', {
  severity: 'critical',
  threshold: 5,
  previous: 0.878,
  current: 0.832,
  change: -4.6,
  p_value: 0.0004,
  affected_categories: [{ category: 'refunds', previous: 0.894, current: 0.596, change: -29.8, p_value_adjusted: 0.0001 }],
  message: 'accuracy dropped 4.6 pts (87.8% -> 83.2%); refunds -29.8 pts',
});
