import type { QueueMessage } from '../ports/index.js';
import type { CaseMessage } from './queues.js';

/**
 * Stage messages carry their run's priority in the body (so forwarded, redelivered and replayed copies keep it);
 * this puts it on the queue message too, where the queue adapters read it (embedded: the receive rank; Service Bus:
 * the `-high` / `-low` queue). Normal messages are left as they are.
 */
export function withRunPriority(messages: ReadonlyArray<QueueMessage<CaseMessage>>): Array<QueueMessage<CaseMessage>> {
  return messages.map((m) => (m.body.priority && m.body.priority !== 'normal' ? { ...m, priority: m.body.priority } : m));
}
