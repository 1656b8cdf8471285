import { createHash } from 'node:crypto';
import type { DeadLetterMessage, QueueMessage } from '../../ports/index.js';
import { activeTraceparent } from '../../telemetry/index.js';
import type { SbMessage, SbPropertyValue, SbReceivedMessage } from './serviceBusSurface.js';

/** Application properties the replay adds to its copies (Service Bus has no "replayed" flag of its own). */
export const REPLAYED_FROM_PROPERTY = 'evalp-replayed-from';
export const REPLAYED_AT_PROPERTY = 'evalp-replayed-at';
/** identifies one replay call: a copy it sent that comes back dead-lettered during the same call is not replayed again */
export const REPLAY_ID_PROPERTY = 'evalp-replay-id';
const MAX_MESSAGE_ID = 128;

/**
 * A queue message as Service Bus sends it: JSON body (the SDK writes it as a data section, which the Functions
 * host reads), the deterministic messageId (duplicate detection), and the W3C trace context in the application
 * properties as both `traceparent` and `Diagnostic-Id` (Service Bus's own name for it). A message without one gets
 * the active span's context when tracing is on.
 */
export function toServiceBusMessage<T>(m: QueueMessage<T>): SbMessage {
  let properties = m.applicationProperties as Record<string, SbPropertyValue> | undefined;
  if (!properties?.traceparent) {
    const traceparent = activeTraceparent();
    if (traceparent) properties = { ...properties, traceparent, 'Diagnostic-Id': traceparent };
  }
  return {
    body: m.body,
    messageId: m.messageId,
    contentType: 'application/json',
    ...(m.correlationId === undefined ? {} : { correlationId: m.correlationId }),
    ...(properties ? { applicationProperties: properties } : {}),
  };
}

/**
 * The copy of a dead-lettered message that replay sends to the main queue: same body, correlation id, subject and
 * properties (trace context included), plus where it came from. Its messageId is new but deterministic
 * (`<id>~r<dead-letter sequence number>`): the original id is probably still inside the queue's duplicate
 * detection window and would be dropped silently, while a replay retried after a crash sends the same copy again.
 */
export function replayCopy(dead: SbReceivedMessage, replay: { id: string; at: Date }): SbMessage {
  const originalId = idText(dead.messageId);
  const sequence = dead.sequenceNumber?.toString() ?? '0';
  return {
    body: dead.body,
    messageId: boundedId(`${originalId}~r${sequence}`),
    ...(dead.contentType === undefined ? {} : { contentType: dead.contentType }),
    ...(dead.correlationId === undefined ? {} : { correlationId: idText(dead.correlationId) }),
    ...(dead.subject === undefined ? {} : { subject: dead.subject }),
    applicationProperties: {
      ...dead.applicationProperties,
      // what it failed with (Service Bus's own property names): a repeat after the replay is then recognisable
      ...(dead.deadLetterReason === undefined ? {} : { DeadLetterReason: dead.deadLetterReason }),
      ...(dead.deadLetterErrorDescription === undefined ? {} : { DeadLetterErrorDescription: dead.deadLetterErrorDescription }),
      [REPLAYED_FROM_PROPERTY]: originalId,
      [REPLAYED_AT_PROPERTY]: replay.at.toISOString(),
      [REPLAY_ID_PROPERTY]: replay.id,
    },
  };
}

export function toDeadLetterMessage(m: SbReceivedMessage): DeadLetterMessage {
  const correlationId = m.correlationId === undefined ? undefined : idText(m.correlationId);
  return {
    messageId: idText(m.messageId),
    sequenceNumber: m.sequenceNumber?.toString() ?? '0',
    deadLetterReason: m.deadLetterReason ?? '',
    deadLetterErrorDescription: m.deadLetterErrorDescription ?? '',
    deliveryCount: m.deliveryCount ?? 0,
    ...(m.enqueuedTimeUtc ? { enqueuedTimeUtc: m.enqueuedTimeUtc } : {}),
    ...(correlationId === undefined ? {} : { correlationId }),
    ...(m.subject === undefined ? {} : { subject: m.subject }),
    applicationProperties: plainProperties(m.applicationProperties),
    body: m.body,
  };
}

export function idText(id: string | number | Buffer | undefined): string {
  if (id === undefined) return '';
  return Buffer.isBuffer(id) ? id.toString('hex') : String(id);
}

function boundedId(id: string): string {
  return id.length <= MAX_MESSAGE_ID ? id : `h:${createHash('sha256').update(id).digest('hex')}`;
}

function plainProperties(properties: SbMessage['applicationProperties']): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(properties ?? {})) {
    if (value === null) continue;
    out[key] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}
