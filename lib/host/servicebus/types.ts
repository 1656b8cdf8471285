/** Application properties as Service Bus carries them (string, number or boolean values). */
export type ApplicationProperties = Record<string, string | number | boolean>;

/** One message to send (the fields of @azure/service-bus's ServiceBusMessage that the platform uses). */
export interface OutboundMessage {
  body: unknown;
  /** Duplicate detection key; generated (a UUID) when absent, in which case it is never a duplicate. */
  messageId?: string;
  correlationId?: string;
  subject?: string;
  applicationProperties?: ApplicationProperties;
  /** The message stays invisible until this time. */
  scheduledEnqueueTimeUtc?: Date;
  /** After this long (from the enqueue time) an undelivered message is dead-lettered ('TTLExpiredException'). */
  timeToLiveMs?: number;
  /**
   * Receive priority, a whole number from -10 to 10 (default 0; higher is received first). Not a Service Bus feature
   * (Azure uses one queue per priority): a message of priority p is ranked as if enqueued p × priorityAgingMs earlier.
   */
  priority?: number;
}

/** A message locked by `receive` (peek-lock): settle it with its `lockToken`. */
export interface ReceivedMessage {
  lockToken: string;
  messageId: string;
  body: unknown;
  /** Deliveries so far, this one included (1 on the first receive). */
  deliveryCount: number;
  enqueuedTimeUtc: Date;
  lockedUntilUtc: Date;
  expiresAtUtc?: Date;
  sequenceNumber: number;
  correlationId?: string;
  subject?: string;
  applicationProperties: ApplicationProperties;
  /**
   * Its last delivery ended with the process that held it (released at the next start): it is delivered alone, so
   * a message that kills the process is dead-lettered by itself, not with the healthy messages of its batch.
   */
  releasedAfterCrash?: boolean;
}

/** A message in a queue's dead-letter sub-queue (`<queue>/$deadletterqueue` in Azure). */
export interface DeadLetteredMessage {
  messageId: string;
  body: unknown;
  deliveryCount: number;
  enqueuedTimeUtc: Date;
  deadLetteredTimeUtc: Date;
  deadLetterReason: string;
  deadLetterErrorDescription: string;
  sequenceNumber: number;
  correlationId?: string;
  subject?: string;
  applicationProperties: ApplicationProperties;
}

/** Messages of one queue by state (mutually exclusive). */
export interface QueueCounts {
  /** Visible now: can be received. */
  active: number;
  /** Not yet visible: scheduled for later. */
  scheduled: number;
  /** Held by an unexpired lock. */
  locked: number;
  deadLettered: number;
}

/** One correlation id's (a run's) messages on a queue. */
export interface CorrelationCounts {
  /** visible now or being processed */
  waiting: number;
  /** scheduled for later (deferred or delayed redeliveries) */
  scheduled: number;
  deadLettered: number;
  lastDeadLetter?: { reason: string; description: string; at: Date };
}

export interface SendResult {
  accepted: number;
  /** Dropped because their messageId was seen on this queue within the duplicate detection window. */
  duplicates: number;
}

export interface QueueEngineOptions {
  /** Clock in epoch milliseconds (tests inject one). */
  now?: () => number;
  /** Default peek-lock duration; Service Bus's default is 60 s. */
  lockDurationMs?: number;
  /** Deliveries before a message is dead-lettered with 'MaxDeliveryCountExceeded' (default 10). */
  maxDeliveryCount?: number;
  /** Per-queue maxDeliveryCount (a queue property in Service Bus); queues not listed use `maxDeliveryCount`. */
  maxDeliveryCountByQueue?: Record<string, number>;
  /** Duplicate detection window by messageId (default 10 min); 0 turns duplicate detection off. */
  duplicateDetectionWindowMs?: number;
  /**
   * How much waiting one step of priority is worth (default 10 min): a message of priority 1 goes before priority-0
   * messages enqueued less than this long before it, so a lower priority waits at most this long per step (aging).
   */
  priorityAgingMs?: number;
}

export interface ReceiveOptions {
  maxMessages: number;
  lockDurationMs?: number;
}

export interface AbandonOptions {
  /** Why (e.g. the handler's error message); kept and quoted if the message is later dead-lettered. */
  reason?: string;
  /**
   * false = give the message back as if it had not been delivered (delivery count decremented); the host uses it
   * for work it releases at shutdown. Default true (Service Bus semantics: the delivery counts).
   */
  countDelivery?: boolean;
}

export interface DeadLetterOptions {
  reason: string;
  description: string;
}

/** Settlements applied in one transaction (see SqliteQueueEngine.settle). */
export interface SettleBatch {
  complete?: string[];
  abandon?: Array<{ lockToken: string; reason?: string }>;
}

export interface SettleResult {
  completed: number;
  abandoned: number;
  /** Abandons that exhausted maxDeliveryCount and went to the dead-letter sub-queue. */
  deadLettered: number;
  /** Tokens that matched no locked message (already settled, or the lock expired and another receive took it). */
  lockLost: number;
}

export const DEAD_LETTER_REASONS = {
  maxDeliveryCountExceeded: 'MaxDeliveryCountExceeded',
  ttlExpired: 'TTLExpiredException',
} as const;
