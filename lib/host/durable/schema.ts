import type Database from 'better-sqlite3';

/**
 * The task hub's tables (prefix dt_). JSON columns hold JSON text; times are epoch milliseconds.
 * - dt_instances: one row per orchestration instance (the current execution of it).
 * - dt_history: the current execution's history events, in order.
 * - dt_inbox: events waiting for an episode (visible_at > now for durable timers); execution_id ties completions
 *   and timers to the execution that scheduled them (NULL for external events, which any execution may take).
 * - dt_work: activity work items; a claim sets locked_until, completion deletes the row.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS dt_instances (
  instance_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  execution_id TEXT NOT NULL,
  status TEXT NOT NULL,
  input TEXT,
  output TEXT,
  custom_status TEXT,
  parent_instance_id TEXT,
  parent_task_id INTEGER,
  parent_execution_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS dt_instances_by_created ON dt_instances (created_at, instance_id);
CREATE TABLE IF NOT EXISTS dt_history (
  instance_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event TEXT NOT NULL,
  PRIMARY KEY (instance_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dt_inbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  instance_id TEXT NOT NULL,
  execution_id TEXT,
  event TEXT NOT NULL,
  visible_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS dt_inbox_by_visible ON dt_inbox (visible_at, instance_id);
CREATE INDEX IF NOT EXISTS dt_inbox_by_instance ON dt_inbox (instance_id, id);
CREATE TABLE IF NOT EXISTS dt_work (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  instance_id TEXT NOT NULL,
  execution_id TEXT NOT NULL,
  task_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  input TEXT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  locked_until INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  UNIQUE (instance_id, execution_id, task_id)
);
CREATE INDEX IF NOT EXISTS dt_work_by_lock ON dt_work (locked_until, id);
`;

/** Creates the task hub tables if they do not exist (idempotent). */
export function createTaskHubSchema(db: Database.Database): void {
  db.exec(DDL);
}
