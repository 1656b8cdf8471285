/** One message in a queue's dead-letter sub-queue (`<queue>/$deadletterqueue` in Service Bus). */
export interface DeadLetterMessage {
  messageId: string;
  /** as a string: Service Bus sequence numbers are 64-bit */
  sequenceNumber: string;
  /** `MaxDeliveryCountExceeded`, `TTLExpiredException`, or what the code that dead-lettered it said */
  deadLetterReason: string;
  deadLetterErrorDescription: string;
  deliveryCount: number;
  enqueuedTimeUtc?: Date;
  correlationId?: string;
  subject?: string;
  applicationProperties: Record<string, string | number | boolean>;
  body: unknown;
}

export interface ListDeadLettersOptions {
  /** at most this many, oldest first (default 100) */
  limit?: number;
  abortSignal?: AbortSignal;
}

export interface ReplayDeadLettersOptions {
  /** only these messages (by messageId); all of the queue's dead letters when absent */
  messageIds?: readonly string[];
  abortSignal?: AbortSignal;
}

export interface ReplayResult {
  /** messages sent back to the main queue and removed from the dead-letter sub-queue */
  replayed: number;
  /** requested ids that were not found in the dead-letter sub-queue */
  notFound: string[];
}

/**
 * Dead-letter inspection and replay: the embedded host's SQLite queues and Azure Service Bus implement it.
 * Listing never changes anything (Service Bus: peek). Replay sends a copy of each message (same body,
 * properties, correlation id) to the main queue, then removes it from the dead-letter sub-queue, so a crash in
 * between can duplicate a message but never lose one (stage workers are idempotent).
 */
export interface DeadLetterPort {
  listDeadLetters(queueName: string, options?: ListDeadLettersOptions): Promise<DeadLetterMessage[]>;
  replayDeadLetters(queueName: string, options?: ReplayDeadLettersOptions): Promise<ReplayResult>;
}
