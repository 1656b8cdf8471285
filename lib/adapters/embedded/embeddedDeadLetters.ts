import type { DeadLetteredMessage, SqliteQueueEngine } from '../../host/index.js';
import type {
  DeadLetterMessage,
  DeadLetterPort,
  ListDeadLettersOptions,
  ReplayDeadLettersOptions,
  ReplayResult,
} from '../../ports/index.js';

const PAGE = 1_000;

/**
 * The dead-letter port on the embedded SQLite queues: wraps SqliteQueueEngine's listDeadLetters and
 * replayDeadLetters (one transaction; replay keeps the messageId and bypasses duplicate detection).
 */
export class EmbeddedDeadLetters implements DeadLetterPort {
  constructor(private readonly engine: SqliteQueueEngine) {}

  async listDeadLetters(queueName: string, options: ListDeadLettersOptions = {}): Promise<DeadLetterMessage[]> {
    options.abortSignal?.throwIfAborted();
    return this.engine.listDeadLetters(queueName, { limit: options.limit ?? 100 }).map(toPortMessage);
  }

  async replayDeadLetters(queueName: string, options: ReplayDeadLettersOptions = {}): Promise<ReplayResult> {
    options.abortSignal?.throwIfAborted();
    if (!options.messageIds) return { replayed: this.engine.replayDeadLetters(queueName), notFound: [] };
    const wanted = new Set(options.messageIds);
    const present = new Set<string>();
    for (let offset = 0; present.size < wanted.size; offset += PAGE) {
      const page = this.engine.listDeadLetters(queueName, { limit: PAGE, offset });
      for (const m of page) if (wanted.has(m.messageId)) present.add(m.messageId);
      if (page.length < PAGE) break;
    }
    const replayed = present.size ? this.engine.replayDeadLetters(queueName, { messageIds: [...present] }) : 0;
    return { replayed, notFound: [...wanted].filter((id) => !present.has(id)) };
  }
}

function toPortMessage(m: DeadLetteredMessage): DeadLetterMessage {
  return {
    messageId: m.messageId,
    sequenceNumber: String(m.sequenceNumber),
    deadLetterReason: m.deadLetterReason,
    deadLetterErrorDescription: m.deadLetterErrorDescription,
    deliveryCount: m.deliveryCount,
    enqueuedTimeUtc: m.enqueuedTimeUtc,
    ...(m.correlationId === undefined ? {} : { correlationId: m.correlationId }),
    ...(m.subject === undefined ? {} : { subject: m.subject }),
    applicationProperties: m.applicationProperties,
    body: m.body,
  };
}
