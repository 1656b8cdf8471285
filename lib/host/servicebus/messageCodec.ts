import { randomUUID } from 'node:crypto';
import type { ApplicationProperties, DeadLetteredMessage, OutboundMessage, ReceivedMessage } from './types.js';
import { nonEmptyString, wholeNumberOption } from './validation.js';

const BODY_JSON = 0;
const BODY_BYTES = 1;

/** A message as stored in `sb_messages` / `sb_dead_letters` (the columns the codec reads). */
export interface StoredMessageRow {
  seq: number;
  message_id: string;
  body: string | null;
  body_kind: number;
  correlation_id: string | null;
  subject: string | null;
  app_props: string | null;
  enqueued_at: number;
  delivery_count: number;
}

export interface EncodedBody {
  text: string | null;
  kind: number;
}

/** JSON for values, base64 for bytes (Buffer / Uint8Array); `undefined` is stored as NULL. */
export function encodeBody(body: unknown): EncodedBody {
  if (body instanceof Uint8Array) return { text: Buffer.from(body).toString('base64'), kind: BODY_BYTES };
  if (body === undefined) return { text: null, kind: BODY_JSON };
  const text = JSON.stringify(body);
  if (text === undefined) throw new TypeError(`A message body must be JSON-serialisable or bytes, got ${typeof body}.`);
  return { text, kind: BODY_JSON };
}

export function decodeBody(text: string | null, kind: number): unknown {
  if (text === null) return undefined;
  return kind === BODY_BYTES ? Buffer.from(text, 'base64') : (JSON.parse(text) as unknown);
}

export function encodeProperties(properties: OutboundMessage['applicationProperties']): string | null {
  if (properties === undefined) return null;
  for (const [key, value] of Object.entries(properties)) {
    const type = typeof value;
    if (type !== 'string' && type !== 'number' && type !== 'boolean') {
      throw new TypeError(`applicationProperties.${key} must be a string, number or boolean, got ${type}.`);
    }
  }
  return JSON.stringify(properties);
}

function decodeProperties(text: string | null): ApplicationProperties {
  return text === null ? {} : (JSON.parse(text) as ApplicationProperties);
}

function optionalFields(row: StoredMessageRow): Pick<ReceivedMessage, 'correlationId' | 'subject'> {
  const fields: Pick<ReceivedMessage, 'correlationId' | 'subject'> = {};
  if (row.correlation_id !== null) fields.correlationId = row.correlation_id;
  if (row.subject !== null) fields.subject = row.subject;
  return fields;
}

export function toReceivedMessage(
  row: StoredMessageRow & { expires_at: number | null },
  lock: { lockToken: string; lockedUntil: number },
): ReceivedMessage {
  const message: ReceivedMessage = {
    lockToken: lock.lockToken,
    messageId: row.message_id,
    body: decodeBody(row.body, row.body_kind),
    deliveryCount: row.delivery_count + 1,
    enqueuedTimeUtc: new Date(row.enqueued_at),
    lockedUntilUtc: new Date(lock.lockedUntil),
    sequenceNumber: row.seq,
    ...optionalFields(row),
    applicationProperties: decodeProperties(row.app_props),
  };
  if (row.expires_at !== null) message.expiresAtUtc = new Date(row.expires_at);
  return message;
}

export function toDeadLetteredMessage(
  row: StoredMessageRow & { dead_lettered_at: number; reason: string; description: string },
): DeadLetteredMessage {
  return {
    messageId: row.message_id,
    body: decodeBody(row.body, row.body_kind),
    deliveryCount: row.delivery_count,
    enqueuedTimeUtc: new Date(row.enqueued_at),
    deadLetteredTimeUtc: new Date(row.dead_lettered_at),
    deadLetterReason: row.reason,
    deadLetterErrorDescription: row.description,
    sequenceNumber: row.seq,
    ...optionalFields(row),
    applicationProperties: decodeProperties(row.app_props),
  };
}

/** A message validated and serialised for `sb_messages` (done before the send transaction). */
export interface EncodedMessage {
  messageId: string;
  checkDuplicate: boolean;
  body: string | null;
  bodyKind: number;
  correlationId: string | null;
  subject: string | null;
  appProps: string | null;
  scheduledAt: number | undefined;
  timeToLiveMs: number | undefined;
  priority: number;
}

export function encodeMessage(message: OutboundMessage): EncodedMessage {
  const { text, kind } = encodeBody(message.body);
  const scheduled = message.scheduledEnqueueTimeUtc;
  if (scheduled !== undefined && !(scheduled instanceof Date && Number.isFinite(scheduled.getTime()))) {
    throw new TypeError('scheduledEnqueueTimeUtc must be a valid Date.');
  }
  const ttl = message.timeToLiveMs;
  if (ttl !== undefined) wholeNumberOption('timeToLiveMs', ttl, 0);
  const priority = message.priority ?? 0;
  if (!Number.isInteger(priority) || priority < -MAX_PRIORITY || priority > MAX_PRIORITY)
    throw new TypeError(`priority must be a whole number from -${MAX_PRIORITY} to ${MAX_PRIORITY}, got ${String(message.priority)}.`);
  const hasId = message.messageId !== undefined;
  return {
    messageId: hasId ? nonEmptyString('messageId', message.messageId) : randomUUID(),
    checkDuplicate: hasId,
    body: text,
    bodyKind: kind,
    correlationId: message.correlationId ?? null,
    subject: message.subject ?? null,
    appProps: encodeProperties(message.applicationProperties),
    scheduledAt: scheduled?.getTime(),
    timeToLiveMs: ttl,
    priority,
  };
}

/** Priorities run from -MAX_PRIORITY to MAX_PRIORITY (0 = default). */
export const MAX_PRIORITY = 10;
