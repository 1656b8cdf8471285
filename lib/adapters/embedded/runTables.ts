import type { SqliteDatabase } from './sqlite.js';
import { ensureOrganizationColumn } from './organizationColumn.js';

/**
 * Tables of the embedded run store. `created_at` is kept normalised to UTC (`Date#toISOString`) so it compares as
 * text; each filter column has an index ending in (created_at, id), the list order (newest first).
 * Shards are separate rows (a run's frozen case list, ~5,000 ids each), read one at a time.
 */
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS st_runs (
  id TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  client_id TEXT,
  suite_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  body TEXT NOT NULL,
  etag TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS st_runs_by_created ON st_runs (created_at, id);
CREATE INDEX IF NOT EXISTS st_runs_by_status ON st_runs (status, created_at, id);
CREATE INDEX IF NOT EXISTS st_runs_by_client ON st_runs (client_id, created_at, id);
CREATE INDEX IF NOT EXISTS st_runs_by_suite ON st_runs (suite_id, created_at, id);
CREATE INDEX IF NOT EXISTS st_runs_by_target ON st_runs (target_id, created_at, id);
CREATE TABLE IF NOT EXISTS st_run_shards (
  run_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  ids TEXT NOT NULL,
  UNIQUE (run_id, idx)
);`;

export function createRunTables(db: SqliteDatabase): void {
  db.exec(SCHEMA_SQL);
  ensureOrganizationColumn(db, 'st_runs', 'from-body', 'organization, created_at, id');
}
