import { type Alert, type AlertNotification, AlertNotificationSchema, AlertSchema } from '../../domain/index.js';
import {
  type AlertFilter,
  type AlertStore,
  ConflictError,
  NotFoundError,
  type Page,
  type PageOptions,
  PreconditionFailedError,
  type WithEtag,
} from '../../ports/index.js';
import { createAlertTables } from './alertTables.js';
import { pageIn, pageWindow } from './pageWindow.js';
import { utcIso } from '../shared/index.js';
import { newEtag, withoutEtag, type SqliteDatabase } from './sqlite.js';
import { StatementCache } from './statementCache.js';

interface BodyRow {
  body: string;
  etag: string;
}

type AlertColumns = [
  runId: string,
  clientId: string | null,
  status: string,
  severity: string,
  metric: string,
  createdAt: string,
  body: string,
  etag: string,
];

const FILTER_COLUMNS = ['organization', 'run_id', 'client_id', 'status', 'severity', 'metric'] as const;

/**
 * Alerts, their notifications and live-check claims on SQLite (tables in `alertTables.ts`). Alerts and
 * notifications are validated with their zod schemas on the way in (a ZodError is thrown as is); `replace*`
 * with `ifMatch` compares the ETag in the UPDATE itself, so two writers never both win.
 */
export class EmbeddedAlertStore implements AlertStore {
  private readonly statements: StatementCache;
  private readonly insertAlertRow;
  private readonly upsertAlertRow;
  private readonly updateAlertRow;
  private readonly selectAlert;
  private readonly deleteAlertTx: (id: string) => void;
  private readonly insertNotificationRow;
  private readonly updateNotificationRow;
  private readonly selectNotification;
  private readonly selectNotifications;
  private readonly insertClaim;

  constructor(db: SqliteDatabase) {
    createAlertTables(db);
    this.statements = new StatementCache(db);
    const columns = 'run_id, client_id, status, severity, metric, created_at, body, etag';
    this.insertAlertRow = db.prepare<[string, ...AlertColumns]>(
      `INSERT INTO st_alerts (id, ${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    );
    this.upsertAlertRow = db.prepare<[string, ...AlertColumns]>(
      `INSERT INTO st_alerts (id, ${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, client_id = excluded.client_id, status = excluded.status,
         severity = excluded.severity, metric = excluded.metric, created_at = excluded.created_at, body = excluded.body, etag = excluded.etag`,
    );
    this.updateAlertRow = db.prepare<[...AlertColumns, string, string | null, string | null]>(
      `UPDATE st_alerts SET run_id = ?, client_id = ?, status = ?, severity = ?, metric = ?, created_at = ?, body = ?, etag = ?
       WHERE id = ? AND (? IS NULL OR etag = ?)`,
    );
    this.selectAlert = db.prepare<[string], BodyRow>('SELECT body, etag FROM st_alerts WHERE id = ?');
    const deleteAlertRow = db.prepare<[string]>('DELETE FROM st_alerts WHERE id = ?');
    const deleteNotificationsOf = db.prepare<[string]>('DELETE FROM st_alert_notifications WHERE alert_id = ?');
    this.deleteAlertTx = db.transaction((id: string) => {
      deleteNotificationsOf.run(id);
      deleteAlertRow.run(id);
    });
    this.insertNotificationRow = db.prepare<[string, string, string, string, string]>(
      'INSERT INTO st_alert_notifications (id, alert_id, created_at, body, etag) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    );
    this.updateNotificationRow = db.prepare<[string, string, string, string | null, string | null]>(
      'UPDATE st_alert_notifications SET body = ?, etag = ? WHERE id = ? AND (? IS NULL OR etag = ?)',
    );
    this.selectNotification = db.prepare<[string], BodyRow>('SELECT body, etag FROM st_alert_notifications WHERE id = ?');
    this.selectNotifications = db.prepare<[string], BodyRow>(
      'SELECT body, etag FROM st_alert_notifications WHERE alert_id = ? ORDER BY created_at, id',
    );
    this.insertClaim = db.prepare<[string, number]>('INSERT INTO st_alert_live_checks (run_id, step) VALUES (?, ?) ON CONFLICT DO NOTHING');
  }

  async createAlert(alert: Alert): Promise<WithEtag<Alert>> {
    const valid = AlertSchema.parse(withoutEtag(alert));
    const etag = newEtag();
    if (this.insertAlertRow.run(valid.id, ...alertColumns(valid, etag)).changes === 0) throw new ConflictError('alert', valid.id);
    return { ...valid, _etag: etag };
  }

  async upsertAlert(alert: Alert): Promise<WithEtag<Alert>> {
    const valid = AlertSchema.parse(withoutEtag(alert));
    const etag = newEtag();
    this.upsertAlertRow.run(valid.id, ...alertColumns(valid, etag));
    return { ...valid, _etag: etag };
  }

  async getAlert(id: string): Promise<WithEtag<Alert> | undefined> {
    const row = this.selectAlert.get(id);
    return row ? fromRow<Alert>(row) : undefined;
  }

  async replaceAlert(alert: Alert, options: { ifMatch?: string } = {}): Promise<WithEtag<Alert>> {
    const valid = AlertSchema.parse(withoutEtag(alert));
    const etag = newEtag();
    const ifMatch = options.ifMatch ?? null;
    if (this.updateAlertRow.run(...alertColumns(valid, etag), valid.id, ifMatch, ifMatch).changes === 0) {
      if (!this.selectAlert.get(valid.id)) throw new NotFoundError('alert', valid.id);
      throw new PreconditionFailedError('alert', valid.id);
    }
    return { ...valid, _etag: etag };
  }

  async deleteAlert(id: string): Promise<void> {
    this.deleteAlertTx(id);
  }

  async listAlerts(filter: AlertFilter = {}, options?: PageOptions): Promise<Page<WithEtag<Alert>>> {
    const window = pageWindow(options);
    const parts: string[] = [];
    const params: string[] = [];
    for (const column of FILTER_COLUMNS) {
      const value = filter[column];
      if (value !== undefined) {
        parts.push(`${column} = ?`);
        params.push(value);
      }
    }
    const where = parts.length ? parts.join(' AND ') : '1';
    const rows = this.statements
      .get<BodyRow>(`SELECT body, etag FROM st_alerts WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, window.limit, window.offset);
    const total = this.statements.get<{ n: number }>(`SELECT count(*) AS n FROM st_alerts WHERE ${where}`).get(...params)?.n ?? 0;
    return pageIn(
      rows.map((row) => fromRow<Alert>(row)),
      total,
      window,
    );
  }

  async createNotification(notification: AlertNotification): Promise<WithEtag<AlertNotification>> {
    const valid = AlertNotificationSchema.parse(withoutEtag(notification));
    const etag = newEtag();
    const { changes } = this.insertNotificationRow.run(
      valid.id,
      valid.alert_id,
      utcIso(valid.created_at, 'created_at'),
      JSON.stringify(valid),
      etag,
    );
    if (changes === 0) throw new ConflictError('alert notification', valid.id);
    return { ...valid, _etag: etag };
  }

  async getNotification(id: string): Promise<WithEtag<AlertNotification> | undefined> {
    const row = this.selectNotification.get(id);
    return row ? fromRow<AlertNotification>(row) : undefined;
  }

  async replaceNotification(notification: AlertNotification, options: { ifMatch?: string } = {}): Promise<WithEtag<AlertNotification>> {
    const valid = AlertNotificationSchema.parse(withoutEtag(notification));
    const etag = newEtag();
    const ifMatch = options.ifMatch ?? null;
    if (this.updateNotificationRow.run(JSON.stringify(valid), etag, valid.id, ifMatch, ifMatch).changes === 0) {
      if (!this.selectNotification.get(valid.id)) throw new NotFoundError('alert notification', valid.id);
      throw new PreconditionFailedError('alert notification', valid.id);
    }
    return { ...valid, _etag: etag };
  }

  async listNotifications(alertId: string): Promise<WithEtag<AlertNotification>[]> {
    return this.selectNotifications.all(alertId).map((row) => fromRow<AlertNotification>(row));
  }

  async claimLiveCheck(runId: string, step: number): Promise<boolean> {
    return this.insertClaim.run(runId, step).changes === 1;
  }
}

function alertColumns(alert: Alert, etag: string): AlertColumns {
  return [
    alert.run_id,
    alert.client_id,
    alert.status,
    alert.severity,
    alert.metric,
    utcIso(alert.created_at, 'created_at'),
    JSON.stringify(alert),
    etag,
  ];
}

function fromRow<T>(row: BodyRow): WithEtag<T> {
  return { ...(JSON.parse(row.body) as T), _etag: row.etag };
}
