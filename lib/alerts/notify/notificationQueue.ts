import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { QueueMessage } from '../../ports/index.js';

/** The queue of webhook deliveries (a Service Bus queue in Azure, an embedded SQLite queue locally). */
export const ALERT_NOTIFICATIONS_QUEUE = 'alert-notifications';

/** Deliver attempt `attempt` of one notification (the outbox row holds everything else). */
export const NotificationMessageSchema = z.object({
  notification_id: z.string().min(1),
  attempt: z.number().int().positive(),
});
export type NotificationMessage = z.infer<typeof NotificationMessageSchema>;

const MAX_MESSAGE_ID = 128;

/**
 * The queue message of one attempt: `messageId = notificationId:attempt` (hashed past Service Bus's 128
 * characters), so a repeated send of the same attempt is dropped; a retry is scheduled with `notBefore`.
 */
export function notificationMessage(notificationId: string, attempt: number, notBefore?: Date): QueueMessage<NotificationMessage> {
  const id = `${notificationId}:${attempt}`;
  return {
    body: { notification_id: notificationId, attempt },
    messageId: id.length <= MAX_MESSAGE_ID ? id : `h:${createHash('sha256').update(id).digest('hex')}`,
    ...(notBefore ? { scheduledEnqueueTimeUtc: notBefore } : {}),
  };
}

/** A short, stable key of a webhook URL (ids and logs carry it instead of the URL, which is often a secret). */
export function webhookKey(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 12);
}
