import type Database from 'better-sqlite3';

/**
 * Tables of the embedded change feed (`cf_`) and document containers (`doc_`).
 * `cf_log.seq` is one AUTOINCREMENT counter shared by all containers: it only grows (per container too) and is
 * never reused, so a checkpoint stays valid even after `prune`.
 */
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS cf_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  container TEXT NOT NULL,
  id TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS cf_log_by_container ON cf_log (container, seq);
CREATE TABLE IF NOT EXISTS cf_leases (
  lease_id TEXT NOT NULL,
  container TEXT NOT NULL,
  seq INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (lease_id, container)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS cf_failed_batches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  lease_id TEXT NOT NULL,
  container TEXT NOT NULL,
  first_seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  document_ids TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  error TEXT NOT NULL,
  failed_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS doc_items (
  container TEXT NOT NULL,
  id TEXT NOT NULL,
  partition_key TEXT,
  body TEXT NOT NULL,
  _etag TEXT NOT NULL,
  _ts INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS doc_items_by_id ON doc_items (container, id);
`;

export function createChangeFeedSchema(db: Database.Database): void {
  db.exec(SCHEMA_SQL);
}
