import type { SqliteDatabase } from './sqlite.js';

/**
 * Tables of the embedded annotation store: tasks (JSON body), items in order, labels (one per item and annotator:
 * the primary key makes a second label impossible) and claims (leases; expired ones are ignored and replaced).
 */
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS st_annotation_tasks (
  id TEXT NOT NULL PRIMARY KEY,
  created_at TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS st_annotation_items (
  task_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (task_id, item_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS st_annotation_items_by_position ON st_annotation_items (task_id, position);
CREATE TABLE IF NOT EXISTS st_annotation_labels (
  task_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  annotator TEXT NOT NULL,
  created_at TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (task_id, item_id, annotator)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS st_annotation_claims (
  task_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  annotator TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (task_id, item_id, annotator)
) WITHOUT ROWID;`;

export function createAnnotationTables(db: SqliteDatabase): void {
  db.exec(SCHEMA_SQL);
}
