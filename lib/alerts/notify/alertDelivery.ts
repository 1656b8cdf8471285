import { severityRank, type Alert, type AlertNotification } from '../../domain/index.js';
import { PreconditionFailedError, type AlertStore } from '../../ports/index.js';

/**
 * An alert's `delivery` summary from its notifications at the highest severity notified (an alert that fell
 * back from critical to warning keeps showing how its critical notice went): `none` without webhooks, `pending`
 * while any is pending, else `failed` if any failed (with its last error), else `delivered`; `attempts` sums
 * their attempts, `delivered_at` is the latest delivery.
 */
export function summarizeDelivery(notifications: readonly AlertNotification[]): Alert['delivery'] {
  const live = notifications.filter((n) => n.status !== 'superseded');
  const top = Math.max(0, ...live.map((n) => severityRank(n.severity)));
  const current = live.filter((n) => severityRank(n.severity) === top);
  if (current.length === 0) return { status: 'none', attempts: 0, last_error: null, delivered_at: null };
  const failed = current.filter((n) => n.status === 'failed');
  const status = current.some((n) => n.status === 'pending') ? 'pending' : failed.length > 0 ? 'failed' : 'delivered';
  const lastError =
    [...current]
      .filter((n) => n.last_error !== null)
      .sort((a, b) => a.updated_at.localeCompare(b.updated_at))
      .at(-1)?.last_error ?? null;
  const delivered = current
    .map((n) => n.delivered_at)
    .filter((d): d is string => d !== null)
    .sort();
  return {
    status,
    attempts: current.reduce((sum, n) => sum + n.attempts, 0),
    last_error: status === 'delivered' ? null : lastError,
    delivered_at: delivered.at(-1) ?? null,
  };
}

/** Rewrites an alert's `delivery` from its notifications (ETag-checked, re-read on a concurrent write). */
export async function refreshAlertDelivery(alerts: AlertStore, alertId: string): Promise<Alert | undefined> {
  for (let attempt = 0; ; attempt++) {
    const alert = await alerts.getAlert(alertId);
    if (!alert) return undefined;
    const delivery = summarizeDelivery(await alerts.listNotifications(alertId));
    if (JSON.stringify(delivery) === JSON.stringify(alert.delivery)) return alert;
    try {
      return await alerts.replaceAlert({ ...alert, delivery }, { ifMatch: alert._etag });
    } catch (err) {
      if (!(err instanceof PreconditionFailedError) || attempt >= 5) throw err;
    }
  }
}
