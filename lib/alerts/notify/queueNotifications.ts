import { atLeastSeverity, severityRank, type Alert, type AlertNotification, type Client } from '../../domain/index.js';
import { ConflictError, PreconditionFailedError, type Clock, type QueuePort, type Stores } from '../../ports/index.js';
import { refreshAlertDelivery } from './alertDelivery.js';
import { ALERT_NOTIFICATIONS_QUEUE, notificationMessage, webhookKey } from './notificationQueue.js';

export interface QueueNotificationsDeps {
  stores: Pick<Stores, 'alerts'>;
  queue: QueuePort;
  clock: Clock;
}

/**
 * The outbox step after an alert is stored: one notification per webhook and e-mail address of the client at the alert's severity,
 * unless that webhook already has one at this severity or higher (so an alert goes out once per severity, and an
 * escalation, e.g. medium to high, goes out again); a webhook with `min_severity` hears only of alerts at or above
 * it (an alert that escalates past it goes out then). A pending lower-severity one for the same webhook is
 * marked `superseded`. Then the first attempt of every notification not yet started is sent to the queue
 * (messageId `id:1`: a repeated call sends nothing twice). Idempotent: safe to call again after a crash.
 * Returns the notifications sent.
 */
export async function queueNotifications(
  alert: Alert,
  client: Pick<Client, 'notify'> | null | undefined,
  deps: QueueNotificationsDeps,
): Promise<AlertNotification[]> {
  const { alerts } = deps.stores;
  const now = deps.clock.now().toISOString();
  // webhooks and e-mail addresses alike (a webhook may ask only for alerts of at least `min_severity`): an e-mail
  // notification's url is `mailto:<address>`, its format `email`
  const webhooks = (client?.notify ?? []).flatMap((t): Array<{ url: string; format: AlertNotification['format'] }> =>
    t.kind === 'webhook'
      ? !t.min_severity || atLeastSeverity(alert.severity, t.min_severity)
        ? [{ url: t.url, format: t.format }]
        : []
      : [{ url: `mailto:${t.address}`, format: 'email' as const }],
  );
  const existing = await alerts.listNotifications(alert.id);
  for (const webhook of webhooks) {
    const key = webhookKey(webhook.url);
    const sameTarget = existing.filter((n) => n.target_key === key);
    if (sameTarget.some((n) => n.status !== 'superseded' && severityRank(n.severity) >= severityRank(alert.severity))) continue;
    const notification: AlertNotification = {
      id: `${alert.id}:${alert.severity}:${key}`,
      alert_id: alert.id,
      severity: alert.severity,
      target_key: key,
      url: webhook.url,
      format: webhook.format,
      status: 'pending',
      attempts: 0,
      last_error: null,
      last_status: null,
      next_attempt_at: null,
      delivered_at: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await alerts.createNotification(notification);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
    }
    for (const lower of sameTarget.filter((n) => n.status === 'pending')) {
      // a delivery attempt that changed it meanwhile checks the alert's severity itself before sending
      await alerts
        .replaceNotification({ ...lower, status: 'superseded', updated_at: now }, { ifMatch: lower._etag })
        .catch((err: unknown) => {
          if (!(err instanceof PreconditionFailedError)) throw err;
        });
    }
  }
  const unsent = (await alerts.listNotifications(alert.id)).filter((n) => n.status === 'pending' && n.attempts === 0);
  if (unsent.length > 0)
    await deps.queue.sendMessages(
      ALERT_NOTIFICATIONS_QUEUE,
      unsent.map((n) => notificationMessage(n.id, 1)),
    );
  await refreshAlertDelivery(alerts, alert.id);
  return unsent;
}
