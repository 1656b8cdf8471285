/** A message to a stage queue. `messageId` is deterministic (`runId:caseId:stage`) so duplicates are dropped. */
export interface QueueMessage<T = unknown> {
  body: T;
  messageId: string;
  correlationId?: string;
  applicationProperties?: Record<string, string | number | boolean>;
  scheduledEnqueueTimeUtc?: Date;
}

/** The sending side of the stage queues (Service Bus in Azure, the embedded SQLite queue locally). */
export interface QueuePort {
  /** sends in batches; returns how many were accepted and how many were dropped as duplicates (when known) */
  sendMessages<T>(queueName: string, messages: readonly QueueMessage<T>[]): Promise<{ accepted: number; duplicates: number }>;
}
