import { organizationCondition } from './cosmosOrganization.js';
import type { Container, SqlParameter } from '@azure/cosmos';
import {
  type Alert,
  type AlertNotification,
  AlertNotificationSchema,
  AlertSchema,
  LEGACY_SEVERITIES,
  migrateSeverity,
} from '../../domain/index.js';
import { type AlertFilter, type AlertStore, NotFoundError, type Page, pageOf, type PageOptions, type WithEtag } from '../../ports/index.js';
import { utcIso } from '../shared/index.js';
import { queryAll } from './cosmosBulk.js';
import { cosmosStatus, readOrUndefined, toStoreError } from './cosmosErrors.js';
import { toCosmosId } from './cosmosIds.js';
import { pageWindow, queryWindow } from './cosmosPaging.js';

type DocumentType = 'alert' | 'notification' | 'claim';

/** Everything in the `alerts` container (partition key /id = `<type>:<key>`). */
interface AlertDocument<T> {
  id: string;
  type: DocumentType;
  entity_id: string;
  created_utc?: string;
  alert_id?: string;
  run_id?: string;
  client_id?: string | null;
  status?: string;
  severity?: string;
  metric?: string;
  body?: T;
  _etag?: string;
}

const docId = (type: DocumentType, key: string): string => toCosmosId(`${type}:${key}`);
/** the body with its ETag; a severity stored before low/medium/high/critical is read in today's terms (`warning` = medium) */
const withEtag = <T>(doc: AlertDocument<T>): WithEtag<T> => {
  const body = doc.body as T & { severity?: string };
  const migrated =
    body && typeof body.severity === 'string' && body.severity in LEGACY_SEVERITIES ? { severity: migrateSeverity(body.severity) } : {};
  return { ...body, ...migrated, _etag: doc._etag ?? '' };
};
const plain = <T>(value: T): T => {
  const { _etag, ...rest } = value as T & { _etag?: string };
  return rest as T;
};

function alertDocument(alert: Alert): AlertDocument<Alert> {
  return {
    id: docId('alert', alert.id),
    type: 'alert',
    entity_id: alert.id,
    created_utc: utcIso(alert.created_at, 'created_at'),
    run_id: alert.run_id,
    client_id: alert.client_id,
    status: alert.status,
    severity: alert.severity,
    metric: alert.metric,
    body: alert,
  };
}

function notificationDocument(notification: AlertNotification): AlertDocument<AlertNotification> {
  return {
    id: docId('notification', notification.id),
    type: 'notification',
    entity_id: notification.id,
    alert_id: notification.alert_id,
    created_utc: utcIso(notification.created_at, 'created_at'),
    body: notification,
  };
}

/**
 * Regression alerts, their notifications and live-check claims on Cosmos DB: one document each, validated with
 * their schemas on the way in; creates fail with ConflictError (409), replaces check the ETag (412).
 */
export class CosmosAlertStore implements AlertStore {
  constructor(private readonly container: Container) {}

  async createAlert(alert: Alert): Promise<WithEtag<Alert>> {
    return this.create('alert', alertDocument(AlertSchema.parse(plain(alert))));
  }

  async upsertAlert(alert: Alert): Promise<WithEtag<Alert>> {
    return withEtag((await this.container.items.upsert<AlertDocument<Alert>>(alertDocument(AlertSchema.parse(plain(alert))))).resource!);
  }

  async getAlert(id: string): Promise<WithEtag<Alert> | undefined> {
    return this.get<Alert>(docId('alert', id));
  }

  async replaceAlert(alert: Alert, options: { ifMatch?: string } = {}): Promise<WithEtag<Alert>> {
    return this.replace('alert', alertDocument(AlertSchema.parse(plain(alert))), options.ifMatch);
  }

  async deleteAlert(id: string): Promise<void> {
    for (const notification of await this.listNotifications(id)) await this.deleteDocument(docId('notification', notification.id));
    await this.deleteDocument(docId('alert', id));
  }

  async listAlerts(filter: AlertFilter = {}, options: PageOptions = {}): Promise<Page<WithEtag<Alert>>> {
    const window = pageWindow(options);
    const parameters: SqlParameter[] = [];
    const conditions = ["c.type = 'alert'"];
    for (const field of ['run_id', 'client_id', 'status', 'severity', 'metric'] as const) {
      const value = filter[field];
      if (value === undefined) continue;
      if (field === 'severity') {
        // documents written before the new severities still say `warning` (read as medium)
        const stored = [value, ...Object.entries(LEGACY_SEVERITIES).flatMap(([old, now]) => (now === value ? [old] : []))];
        parameters.push({ name: '@severity', value: stored });
        conditions.push('ARRAY_CONTAINS(@severity, c.severity)');
        continue;
      }
      parameters.push({ name: `@${field}`, value });
      conditions.push(`c.${field} = @${field}`);
    }
    if (filter.organization !== undefined) {
      parameters.push({ name: '@org', value: filter.organization });
      conditions.push(organizationCondition('c.body.organization', '@org', filter.organization));
    }
    const where = ` WHERE ${conditions.join(' AND ')}`;
    const { docs, total } = await queryWindow<AlertDocument<Alert>>(
      this.container,
      { where, parameters, orderBy: 'c.created_utc DESC, c.entity_id DESC' },
      window,
    );
    return pageOf(docs.map(withEtag), total, window);
  }

  async createNotification(notification: AlertNotification): Promise<WithEtag<AlertNotification>> {
    return this.create('alert notification', notificationDocument(AlertNotificationSchema.parse(plain(notification))));
  }

  async getNotification(id: string): Promise<WithEtag<AlertNotification> | undefined> {
    return this.get<AlertNotification>(docId('notification', id));
  }

  async replaceNotification(notification: AlertNotification, options: { ifMatch?: string } = {}): Promise<WithEtag<AlertNotification>> {
    return this.replace('alert notification', notificationDocument(AlertNotificationSchema.parse(plain(notification))), options.ifMatch);
  }

  async listNotifications(alertId: string): Promise<WithEtag<AlertNotification>[]> {
    const docs = await queryAll<AlertDocument<AlertNotification>>(this.container, {
      query: "SELECT * FROM c WHERE c.type = 'notification' AND c.alert_id = @alert ORDER BY c.created_utc, c.entity_id",
      parameters: [{ name: '@alert', value: alertId }],
    });
    return docs.map(withEtag);
  }

  async claimLiveCheck(runId: string, step: number): Promise<boolean> {
    const key = JSON.stringify([runId, step]);
    try {
      await this.container.items.create<AlertDocument<never>>({ id: docId('claim', key), type: 'claim', entity_id: key, run_id: runId });
      return true;
    } catch (error) {
      if (cosmosStatus(error) === 409) return false;
      throw error;
    }
  }

  private async create<T>(entity: string, doc: AlertDocument<T>): Promise<WithEtag<T>> {
    try {
      return withEtag((await this.container.items.create<AlertDocument<T>>(doc)).resource!);
    } catch (error) {
      throw toStoreError(error, entity, doc.entity_id);
    }
  }

  private async get<T>(id: string): Promise<WithEtag<T> | undefined> {
    const doc = await readOrUndefined(this.container.item(id, id).read<AlertDocument<T>>());
    return doc && withEtag(doc);
  }

  private async replace<T>(entity: string, doc: AlertDocument<T>, ifMatch: string | undefined): Promise<WithEtag<T>> {
    try {
      const { resource } = await this.container
        .item(doc.id, doc.id)
        .replace<AlertDocument<T>>(doc, ifMatch ? { accessCondition: { type: 'IfMatch', condition: ifMatch } } : {});
      if (!resource) throw new NotFoundError(entity, doc.entity_id);
      return withEtag(resource);
    } catch (error) {
      throw toStoreError(error, entity, doc.entity_id);
    }
  }

  private async deleteDocument(id: string): Promise<void> {
    try {
      await this.container.item(id, id).delete();
    } catch (error) {
      if (cosmosStatus(error) !== 404) throw error;
    }
  }
}
