import type { Alert } from '../domain/index.js';
import { NotFoundError, PreconditionFailedError, type AlertStore, type Clock } from '../ports/index.js';

/**
 * Marks an alert acknowledged by `by` now. Idempotent: an alert already acknowledged is returned unchanged
 * (the first acknowledgement's who and when are kept). ETag-checked against concurrent writes (a delivery
 * update, a live alert confirmed by the finished run): re-read and retried. NotFoundError when missing.
 */
export async function acknowledgeAlert(alerts: AlertStore, id: string, by: string, clock: Clock): Promise<Alert> {
  for (let attempt = 0; ; attempt++) {
    const alert = await alerts.getAlert(id);
    if (!alert) throw new NotFoundError('alert', id);
    if (alert.status === 'acknowledged') return withoutEtag(alert);
    const now = clock.now().toISOString();
    try {
      return withoutEtag(
        await alerts.replaceAlert(
          { ...alert, status: 'acknowledged', acknowledged_at: now, acknowledged_by: by, updated_at: now },
          { ifMatch: alert._etag },
        ),
      );
    } catch (err) {
      if (!(err instanceof PreconditionFailedError) || attempt >= 5) throw err;
    }
  }
}

function withoutEtag(alert: Alert & { _etag?: string }): Alert {
  const { _etag, ...rest } = alert;
  return rest;
}
