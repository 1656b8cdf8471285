import { LEGACY_SEVERITIES } from '../../domain/index.js';
import type { SqliteDatabase } from './sqlite.js';
import { ensureOrganizationColumn } from './organizationColumn.js';

/**
 * Tables of the embedded alert store. Alerts keep their filter columns beside the JSON body, with an index per
 * filter ending in (created_at, id) (the list order, newest first); `created_at` is normalised to UTC so it
 * compares as text. Notifications are keyed by their deterministic id; live-check claims by (run, step).
 */
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS st_alerts (
  id TEXT NOT NULL PRIMARY KEY,
  run_id TEXT NOT NULL,
  client_id TEXT,
  status TEXT NOT NULL,
  severity TEXT NOT NULL,
  metric TEXT NOT NULL,
  created_at TEXT NOT NULL,
  body TEXT NOT NULL,
  etag TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS st_alerts_by_created ON st_alerts (created_at, id);
CREATE INDEX IF NOT EXISTS st_alerts_by_run ON st_alerts (run_id, created_at, id);
CREATE INDEX IF NOT EXISTS st_alerts_by_client ON st_alerts (client_id, created_at, id);
CREATE INDEX IF NOT EXISTS st_alerts_by_status ON st_alerts (status, created_at, id);
CREATE TABLE IF NOT EXISTS st_alert_notifications (
  id TEXT NOT NULL PRIMARY KEY,
  alert_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  body TEXT NOT NULL,
  etag TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS st_alert_notifications_by_alert ON st_alert_notifications (alert_id, created_at, id);
CREATE TABLE IF NOT EXISTS st_alert_live_checks (
  run_id TEXT NOT NULL,
  step INTEGER NOT NULL,
  PRIMARY KEY (run_id, step)
) WITHOUT ROWID;`;

export function createAlertTables(db: SqliteDatabase): void {
  db.exec(SCHEMA_SQL);
  ensureOrganizationColumn(db, 'st_alerts', 'from-body', 'organization, created_at, id');
  migrateLegacySeverities(db);
}

/**
 * Alerts and notifications stored before the severities became low / medium / high / critical say `warning`: they
 * become `medium` (column and body; `critical` stays critical: lib/domain/alertSeverity.ts LEGACY_SEVERITIES). Runs at
 * every start; after the first it matches nothing (the column is indexed only through the filters, so it is a scan of
 * the alerts table, which holds one row per (run, metric)).
 */
function migrateLegacySeverities(db: SqliteDatabase): void {
  db.transaction(() => {
    for (const [old, now] of Object.entries(LEGACY_SEVERITIES)) {
      db.prepare(`UPDATE st_alerts SET severity = ?, body = json_set(body, '$.severity', ?) WHERE severity = ?`).run(now, now, old);
      db.prepare(`UPDATE st_alert_notifications SET body = json_set(body, '$.severity', ?) WHERE json_extract(body, '$.severity') = ?`).run(
        now,
        old,
      );
    }
  })();
}
