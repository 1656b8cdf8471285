/** A run's messages across the stage queues: what the run view, the watchdog and `evalp status` show. */
export interface RunQueueCounts {
  /** visible now or being processed */
  waiting: number;
  /** scheduled for later: cases put off by an open circuit, or delivered again after a backoff */
  scheduled: number;
  /** dead letters of the run (poison or exhausted messages): the run cannot finish until they are replayed */
  dead_lettered: number;
  /** the latest dead letter's reason and description, and when */
  last_dead_letter: { reason: string; description: string; at: string } | null;
}

/** A message a stage worker found unprocessable, with why. */
export interface PoisonMessage {
  messageId: string;
  correlationId?: string;
  body: unknown;
  applicationProperties?: Record<string, string | number | boolean>;
  /** short and stable (e.g. `InvalidMessage`, `ProcessingFailed`): what `evalp dlq replay` compares */
  reason: string;
  /** the validation error or the exception, for a person */
  description: string;
  /** deliveries it had (for the dead letter's record) */
  deliveryCount?: number;
}

export interface RunQueueCountOptions {
  /** count now rather than reuse a recent count */
  fresh?: boolean;
}

/**
 * Per-run queue figures and per-message dead-lettering for the stage workers. The embedded host implements both on
 * its SQLite queues. On Azure Service Bus the figures come from peeking the queues (ServiceBusRunQueues), but a
 * message its Functions binding delivered cannot be dead-lettered without the binding's settlement actions, so there
 * `deadLetterMessages` is absent and the workers fall back to logging poison.
 */
export interface RunQueuesPort {
  /**
   * The run's messages on the queues. Counts up to a few seconds old may come back (counting is a scan or a peek of
   * every message); `fresh` counts now, for a decision on the run's fate (the watchdog).
   */
  runQueueCounts(runId: string, queueNames: readonly string[], options?: RunQueueCountOptions): Promise<RunQueueCounts>;
  /**
   * dead-letters copies of unprocessable messages (the host completes the originals); a message id already
   * dead-lettered on the queue is skipped. Absent where the platform cannot dead-letter a delivered message.
   */
  deadLetterMessages?(queueName: string, messages: readonly PoisonMessage[]): Promise<number>;
}
