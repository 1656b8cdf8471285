import type { RunPriority } from '../domain/index.js';

/** A message to a stage queue. `messageId` is deterministic (`runId:caseId:stage`) so duplicates are dropped. */
export interface QueueMessage<T = unknown> {
  body: T;
  messageId: string;
  correlationId?: string;
  applicationProperties?: Record<string, string | number | boolean>;
  scheduledEnqueueTimeUtc?: Date;
  /**
   * the run's priority (absent = normal): the embedded queue ranks by it, Service Bus adapters send high and low
   * messages to the queue's `-high` / `-low` sibling (priorityQueueName)
   */
  priority?: RunPriority;
}

/**
 * The queue a message of `priority` goes to where priorities are separate queues (Azure Service Bus, which has no
 * message priority): `normal` keeps the name, `high` and `low` add `-high` / `-low`.
 */
export function priorityQueueName(queueName: string, priority: RunPriority | undefined): string {
  return priority === undefined || priority === 'normal' ? queueName : `${queueName}-${priority}`;
}

/** The sending side of the stage queues (Service Bus in Azure, the embedded SQLite queue locally). */
export interface QueuePort {
  /** sends in batches; returns how many were accepted and how many were dropped as duplicates (when known) */
  sendMessages<T>(queueName: string, messages: readonly QueueMessage<T>[]): Promise<{ accepted: number; duplicates: number }>;
}
