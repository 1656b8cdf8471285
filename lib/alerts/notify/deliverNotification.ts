import { PreconditionFailedError, type Clock, type MailPort, type QueuePort, type Stores } from '../../ports/index.js';
import { retryWaitInMs } from '../../resilience/index.js';
import { severityRank, type Alert, type AlertNotification } from '../../domain/index.js';
import { alertEmail, runEmail } from './emailMessage.js';
import type { WebhookAnswer } from './postWebhook.js';
import { refreshAlertDelivery } from './alertDelivery.js';
import { formatNotification } from './formatNotification.js';
import { ALERT_NOTIFICATIONS_QUEUE, notificationMessage, type NotificationMessage } from './notificationQueue.js';
import { postWebhook } from './postWebhook.js';

export interface DeliveryOptions {
  /** retries after the first attempt (default 5: six attempts in all) */
  maxRetries?: number;
  /** base of the exponential backoff with full jitter (default 2 s; doubles per retry) */
  retryDelayInMs?: number;
  /** ceiling of one backoff delay (default 5 min) */
  maxRetryDelayInMs?: number;
  /** longest Retry-After honoured (default 1 h); longer requests are clamped */
  maxRetryAfterInMs?: number;
  /** per attempt (default 10 s) */
  timeoutInMs?: number;
  /** uniform [0, 1) source of the jitter (tests) */
  random?: () => number;
}

export interface DeliveryDeps {
  stores: Pick<Stores, 'alerts'>;
  queue: QueuePort;
  clock: Clock;
  /** where the platform answers, for the link in the message */
  publicUrl?: string;
  /** the platform's outbound-policy fetch (lib/outbound); default the global fetch */
  fetch?: typeof globalThis.fetch;
  /** e-mail (format `email`); without it an e-mail notification fails, recorded, naming the settings to set */
  mailer?: MailPort;
  /** finished-run e-mails (`about: 'run'`) read the run and its statistics */
  runs?: Pick<Stores, 'runs' | 'runStats'>;
}

export interface DeliveryResult {
  notification_id: string;
  attempt: number;
  outcome: 'delivered' | 'retry_scheduled' | 'failed' | 'superseded' | 'skipped';
  /** HTTP status of this attempt (null: no answer) */
  status?: number | null;
  next_attempt_at?: string;
}

export const DEFAULT_DELIVERY_OPTIONS = {
  maxRetries: 5,
  retryDelayInMs: 2_000,
  maxRetryDelayInMs: 300_000,
  maxRetryAfterInMs: 3_600_000,
  timeoutInMs: 10_000,
} as const;

/**
 * One attempt of one webhook notification, from its queue message. Skips a message whose notification is gone,
 * finished, or already past this attempt (redelivery), and one another worker claimed (ETag). Otherwise claims
 * the attempt, POSTs the alert in the notification's format and records the outcome: `delivered`; a retryable
 * failure (no answer, 408, 429, 5xx) schedules the next attempt on the queue after the jittered exponential
 * backoff or the server's Retry-After, whichever is longer; after `maxRetries` retries, or on another 4xx, the
 * notification is `failed` with its last error. The alert's `delivery` summary follows.
 */
export async function deliverNotification(
  message: NotificationMessage,
  deps: DeliveryDeps,
  options: DeliveryOptions = {},
): Promise<DeliveryResult> {
  const { alerts } = deps.stores;
  const opts = { ...DEFAULT_DELIVERY_OPTIONS, ...options };
  const skipped: DeliveryResult = { notification_id: message.notification_id, attempt: message.attempt, outcome: 'skipped' };
  const found = await alerts.getNotification(message.notification_id);
  if (!found || found.status !== 'pending' || found.attempts > message.attempt) return skipped;
  const alert = found.about === 'run' ? undefined : await alerts.getAlert(found.alert_id);
  const now = (): string => deps.clock.now().toISOString();
  if (found.about !== 'run' && (!alert || severityRank(alert.severity) > severityRank(found.severity))) {
    await save(alerts, { ...found, status: 'superseded', updated_at: now() }, found._etag);
    if (alert) await refreshAlertDelivery(alerts, alert.id);
    return { ...skipped, outcome: 'superseded' };
  }
  const claimed = await save(alerts, { ...found, attempts: message.attempt, next_attempt_at: null, updated_at: now() }, found._etag);
  if (!claimed) return skipped;

  const answer =
    found.format === 'email'
      ? await sendEmail(found, alert, deps)
      : await postWebhook(found.url, formatNotification(alert!, found.format, deps.publicUrl), {
          timeoutInMs: opts.timeoutInMs,
          ...(deps.fetch ? { fetch: deps.fetch } : {}),
        });
  const base: AlertNotification = { ...claimed, last_status: answer.status, updated_at: now() };
  let result: DeliveryResult;
  let next: AlertNotification;
  if (answer.ok) {
    next = { ...base, status: 'delivered', last_error: null, delivered_at: now() };
    result = { ...skipped, outcome: 'delivered', status: answer.status };
  } else if (answer.retryable && message.attempt <= opts.maxRetries) {
    const wait = retryWaitInMs(message.attempt - 1, { retryAfterInMs: answer.retryAfterInMs }, { ...opts, maxRetries: opts.maxRetries });
    const at = new Date(deps.clock.now().getTime() + wait);
    next = { ...base, last_error: answer.error ?? null, next_attempt_at: at.toISOString() };
    await deps.queue.sendMessages(ALERT_NOTIFICATIONS_QUEUE, [notificationMessage(found.id, message.attempt + 1, at)]);
    result = { ...skipped, outcome: 'retry_scheduled', status: answer.status, next_attempt_at: at.toISOString() };
  } else {
    const why = answer.retryable ? `gave up after ${message.attempt} attempts` : 'not retried';
    next = { ...base, status: 'failed', last_error: `${answer.error ?? 'failed'} (${why})` };
    result = { ...skipped, outcome: 'failed', status: answer.status };
  }
  // a concurrent escalation may have marked it superseded meanwhile: its own write stands
  await save(alerts, next, claimed._etag);
  if (alert) await refreshAlertDelivery(alerts, alert.id);
  return result;
}

/** One e-mail attempt, answered as a webhook attempt is (no HTTP status): an alert's or a finished run's. */
async function sendEmail(found: AlertNotification, alert: Alert | undefined, deps: DeliveryDeps): Promise<WebhookAnswer> {
  if (!deps.mailer)
    return {
      ok: false,
      status: null,
      retryable: false,
      error: 'no e-mail sender is configured (EVALP_EMAIL_FROM with EVALP_SMTP_HOST or EVALP_ACS_EMAIL_ENDPOINT)',
    };
  const to = [found.url.replace(/^mailto:/, '')];
  let message;
  if (found.about === 'run') {
    const run = await deps.runs?.runs.getRun(found.alert_id);
    if (!run) return { ok: false, status: null, retryable: false, error: `run ${found.alert_id} not found` };
    message = runEmail(run, await deps.runs?.runStats.getRunStats(run.id), to, deps.publicUrl);
  } else {
    message = alertEmail(alert!, to, deps.publicUrl);
  }
  const sent = await deps.mailer.send(message);
  return sent.ok ? { ok: true, status: null, retryable: false } : { ok: false, status: null, retryable: sent.retryable, error: sent.error };
}

/** An ETag-checked write; undefined when someone else wrote first. */
async function save(alerts: DeliveryDeps['stores']['alerts'], notification: AlertNotification, etag: string) {
  try {
    return await alerts.replaceNotification(notification, { ifMatch: etag });
  } catch (err) {
    if (err instanceof PreconditionFailedError) return undefined;
    throw err;
  }
}
