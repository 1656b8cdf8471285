import type { ReceivedMessage } from './types.js';

/**
 * The trigger metadata Azure's Service Bus binding gives a Node function (camel-cased binding data), for one
 * message. Times are ISO strings, as they arrive over the worker protocol; absent optional fields are omitted.
 */
export function singleMessageMetadata(m: ReceivedMessage): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    messageId: m.messageId,
    deliveryCount: m.deliveryCount,
    enqueuedTimeUtc: m.enqueuedTimeUtc.toISOString(),
    lockToken: m.lockToken,
    sequenceNumber: m.sequenceNumber,
    applicationProperties: m.applicationProperties,
  };
  if (m.correlationId !== undefined) metadata.correlationId = m.correlationId;
  if (m.subject !== undefined) metadata.subject = m.subject;
  if (m.expiresAtUtc !== undefined) metadata.expiresAtUtc = m.expiresAtUtc.toISOString();
  return metadata;
}

/** The `...Array` forms for a `cardinality: 'many'` batch (null where a message lacks the field). */
export function batchMetadata(messages: ReceivedMessage[]): Record<string, unknown> {
  return {
    messageIdArray: messages.map((m) => m.messageId),
    deliveryCountArray: messages.map((m) => m.deliveryCount),
    enqueuedTimeUtcArray: messages.map((m) => m.enqueuedTimeUtc.toISOString()),
    lockTokenArray: messages.map((m) => m.lockToken),
    sequenceNumberArray: messages.map((m) => m.sequenceNumber),
    applicationPropertiesArray: messages.map((m) => m.applicationProperties),
    correlationIdArray: messages.map((m) => m.correlationId ?? null),
    subjectArray: messages.map((m) => m.subject ?? null),
    expiresAtUtcArray: messages.map((m) => m.expiresAtUtc?.toISOString() ?? null),
  };
}
