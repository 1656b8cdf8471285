import { z } from 'zod';
import { AlertSeveritySchema } from './alert.js';
import { NotifyTargetSchema } from './client.js';

/** a webhook's body format, or `email` (the url is `mailto:<address>`, sent through the platform's mail port) */
export const NotificationFormatSchema = z.enum(['slack', 'teams', 'json', 'email']);
export type NotificationFormat = z.infer<typeof NotificationFormatSchema>;

/** `superseded`: a higher severity of the same alert was queued for the same webhook before this one went out */
export const NotificationStatusSchema = z.enum(['pending', 'delivered', 'failed', 'superseded']);
export type NotificationStatus = z.infer<typeof NotificationStatusSchema>;

/**
 * One delivery of one alert, at one severity, to one webhook: the persisted outbox row. Its id is deterministic
 * (`notificationId`), and it is created with `createNotification` (which fails when present), so an alert is
 * never sent twice at the same severity to the same webhook. The URL is a snapshot taken when the alert was
 * raised (webhook URLs are often secrets: never shown by the API, never written into `last_error`).
 */
export const AlertNotificationSchema = z
  .object({
    id: z.string().min(1),
    /** the alert's id; for a finished-run e-mail (`about: 'run'`) the run's id */
    alert_id: z.string().min(1),
    /** what it tells: an alert (default) or a finished run (e-mail only) */
    about: z.enum(['alert', 'run']).optional(),
    severity: AlertSeveritySchema,
    /** a short hash of the URL (`webhookKey`), so ids stay short and free of secrets */
    target_key: z.string().min(1),
    url: z.string().url(),
    format: NotificationFormatSchema,
    status: NotificationStatusSchema,
    /** attempts started so far (the queue message of attempt n carries n) */
    attempts: z.number().int().nonnegative(),
    last_error: z.string().nullable(),
    /** HTTP status of the last attempt (null: no answer: network error or timeout) */
    last_status: z.number().int().nullable(),
    next_attempt_at: z.iso.datetime({ offset: true }).nullable(),
    delivered_at: z.iso.datetime({ offset: true }).nullable(),
    created_at: z.iso.datetime({ offset: true }),
    updated_at: z.iso.datetime({ offset: true }),
  })
  .strict();
export type AlertNotification = z.infer<typeof AlertNotificationSchema>;

export type WebhookTarget = Extract<z.infer<typeof NotifyTargetSchema>, { kind: 'webhook' }>;
