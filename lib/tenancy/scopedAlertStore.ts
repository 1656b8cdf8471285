import type { Alert, AlertNotification } from '../domain/index.js';
import { NotFoundError, type AlertFilter, type AlertStore, type Page, type PageOptions, type WithEtag } from '../ports/index.js';
import type { Ownership } from './ownership.js';
import type { ScopedRunStore } from './scopedRunStores.js';

/** Alerts of one organization, and the notifications and live-check claims of its alerts and runs. */
export class ScopedAlertStore implements AlertStore {
  constructor(
    private readonly inner: AlertStore,
    private readonly scope: Ownership,
    private readonly runs: ScopedRunStore,
  ) {}

  createAlert(alert: Alert): Promise<WithEtag<Alert>> {
    return this.scope.written(this.inner.createAlert(this.scope.stamp(alert)));
  }

  async upsertAlert(alert: Alert): Promise<WithEtag<Alert>> {
    const existing = await this.inner.getAlert(alert.id);
    if (existing && !this.scope.owns(existing)) throw new NotFoundError('alert', alert.id);
    return this.scope.written(this.inner.upsertAlert(this.scope.stamp(alert)));
  }

  async getAlert(id: string): Promise<WithEtag<Alert> | undefined> {
    return this.scope.visible(await this.inner.getAlert(id));
  }

  async replaceAlert(alert: Alert, options?: { ifMatch?: string }): Promise<WithEtag<Alert>> {
    if (!(await this.getAlert(alert.id))) throw new NotFoundError('alert', alert.id);
    return this.scope.written(this.inner.replaceAlert(this.scope.stamp(alert), options));
  }

  async deleteAlert(id: string): Promise<void> {
    if (await this.getAlert(id)) await this.inner.deleteAlert(id);
  }

  async listAlerts(filter: AlertFilter = {}, options?: PageOptions): Promise<Page<WithEtag<Alert>>> {
    const page = await this.inner.listAlerts({ ...filter, organization: this.scope.organization }, options);
    return { ...page, items: this.scope.visibleOnly(page.items) };
  }

  async createNotification(notification: AlertNotification): Promise<WithEtag<AlertNotification>> {
    await this.requireAlert(notification.alert_id);
    return this.inner.createNotification(notification);
  }

  async getNotification(id: string): Promise<WithEtag<AlertNotification> | undefined> {
    const n = await this.inner.getNotification(id);
    return n && (await this.getAlert(n.alert_id)) ? n : undefined;
  }

  async replaceNotification(notification: AlertNotification, options?: { ifMatch?: string }): Promise<WithEtag<AlertNotification>> {
    await this.requireAlert(notification.alert_id);
    return this.inner.replaceNotification(notification, options);
  }

  async listNotifications(alertId: string): Promise<WithEtag<AlertNotification>[]> {
    return (await this.getAlert(alertId)) ? this.inner.listNotifications(alertId) : [];
  }

  async claimLiveCheck(runId: string, step: number): Promise<boolean> {
    if (!(await this.runs.ownsRun(runId))) throw new NotFoundError('run', runId);
    return this.inner.claimLiveCheck(runId, step);
  }

  private async requireAlert(id: string): Promise<void> {
    if (!(await this.getAlert(id))) throw new NotFoundError('alert', id);
  }
}
