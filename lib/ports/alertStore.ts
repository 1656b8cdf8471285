import type { Alert, AlertMetric, AlertNotification, AlertSeverity } from '../domain/index.js';
import type { OrganizationScope } from './organizationScope.js';
import type { Page, PageOptions, WithEtag } from './paging.js';

export interface AlertFilter extends OrganizationScope {
  run_id?: string;
  client_id?: string;
  status?: Alert['status'];
  severity?: AlertSeverity;
  metric?: AlertMetric;
}

/**
 * Regression alerts (id `${run_id}:${metric}`), their webhook notifications (the delivery outbox) and the
 * checkpoints of live detection. Verbs as every store: `create*` throws ConflictError when present, `get*`
 * returns undefined, `replace*` throws NotFoundError when missing and PreconditionFailedError on a stale
 * `ifMatch`, `delete*` is idempotent. Alerts are validated with AlertSchema on the way in.
 */
export interface AlertStore {
  createAlert(alert: Alert): Promise<WithEtag<Alert>>;
  upsertAlert(alert: Alert): Promise<WithEtag<Alert>>;
  getAlert(id: string): Promise<WithEtag<Alert> | undefined>;
  replaceAlert(alert: Alert, options?: { ifMatch?: string }): Promise<WithEtag<Alert>>;
  /** also deletes the alert's notifications */
  deleteAlert(id: string): Promise<void>;
  /** newest first (created_at, then id, descending) */
  listAlerts(filter?: AlertFilter, options?: PageOptions): Promise<Page<WithEtag<Alert>>>;

  createNotification(notification: AlertNotification): Promise<WithEtag<AlertNotification>>;
  getNotification(id: string): Promise<WithEtag<AlertNotification> | undefined>;
  replaceNotification(notification: AlertNotification, options?: { ifMatch?: string }): Promise<WithEtag<AlertNotification>>;
  /** every notification of an alert, oldest first (created_at, then id) */
  listNotifications(alertId: string): Promise<WithEtag<AlertNotification>[]>;

  /**
   * Live detection's throttle: true for the first caller of (run, step), false for every later one (also across
   * processes and restarts). Steps are small integers (progress quarters).
   */
  claimLiveCheck(runId: string, step: number): Promise<boolean>;
}
