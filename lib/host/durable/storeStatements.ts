import type Database from 'better-sqlite3';

/** A dt_instances row as SQLite returns it. */
export interface InstanceRow {
  instance_id: string;
  name: string;
  execution_id: string;
  status: string;
  input: string | null;
  output: string | null;
  custom_status: string | null;
  parent_instance_id: string | null;
  parent_task_id: number | null;
  parent_execution_id: string | null;
  created_at: number;
  updated_at: number;
}

type NewInstanceRow = Omit<InstanceRow, 'output' | 'custom_status'>;

/** The store's prepared statements (prepared once per connection). */
export function prepareStatements(db: Database.Database) {
  return {
    selectInstance: db.prepare<[string], InstanceRow>('SELECT * FROM dt_instances WHERE instance_id = ?'),
    insertInstance: db.prepare<NewInstanceRow>(
      `INSERT INTO dt_instances (instance_id, name, execution_id, status, input, parent_instance_id, parent_task_id,
         parent_execution_id, created_at, updated_at)
       VALUES (@instance_id, @name, @execution_id, @status, @input, @parent_instance_id, @parent_task_id,
         @parent_execution_id, @created_at, @updated_at)`,
    ),
    deleteInstance: db.prepare<[string]>('DELETE FROM dt_instances WHERE instance_id = ?'),
    updateRunning: db.prepare<[string | null, number, string]>(
      "UPDATE dt_instances SET status = 'Running', custom_status = ?, updated_at = ? WHERE instance_id = ?",
    ),
    updateFinal: db.prepare<[string, string, string | null, number, string]>(
      'UPDATE dt_instances SET status = ?, output = ?, custom_status = ?, updated_at = ? WHERE instance_id = ?',
    ),
    continueAsNew: db.prepare<[string, string, string | null, number, string]>(
      `UPDATE dt_instances SET status = 'ContinuedAsNew', execution_id = ?, input = ?, output = NULL, custom_status = ?,
         updated_at = ? WHERE instance_id = ?`,
    ),
    selectHistory: db.prepare<[string], { event: string }>('SELECT event FROM dt_history WHERE instance_id = ? ORDER BY seq'),
    nextSeq: db.prepare<[string], { seq: number }>('SELECT COALESCE(MAX(seq) + 1, 0) AS seq FROM dt_history WHERE instance_id = ?'),
    insertHistory: db.prepare<[string, number, string]>('INSERT INTO dt_history (instance_id, seq, event) VALUES (?, ?, ?)'),
    deleteHistory: db.prepare<[string]>('DELETE FROM dt_history WHERE instance_id = ?'),
    insertInbox: db.prepare<[string, string | null, string, number]>(
      'INSERT INTO dt_inbox (instance_id, execution_id, event, visible_at) VALUES (?, ?, ?, ?)',
    ),
    dueInstances: db.prepare<[number, number], { instance_id: string }>(
      `SELECT instance_id, MIN(id) AS first_id FROM dt_inbox WHERE visible_at <= ?
       GROUP BY instance_id ORDER BY first_id LIMIT ?`,
    ),
    readInbox: db.prepare<[string, number, number], { id: number; execution_id: string | null; event: string }>(
      'SELECT id, execution_id, event FROM dt_inbox WHERE instance_id = ? AND visible_at <= ? ORDER BY id LIMIT ?',
    ),
    selectPendingExternal: db.prepare<[string], { event: string }>(
      'SELECT event FROM dt_inbox WHERE instance_id = ? AND execution_id IS NULL ORDER BY id',
    ),
    deleteInboxRow: db.prepare<[number]>('DELETE FROM dt_inbox WHERE id = ?'),
    deleteInbox: db.prepare<[string]>('DELETE FROM dt_inbox WHERE instance_id = ?'),
    nextVisible: db.prepare<[number], { at: number | null }>('SELECT MIN(visible_at) AS at FROM dt_inbox WHERE visible_at > ?'),
    insertWork: db.prepare<[string, string, number, string, string, number]>(
      `INSERT OR IGNORE INTO dt_work (instance_id, execution_id, task_id, name, input, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    deleteWork: db.prepare<[string]>('DELETE FROM dt_work WHERE instance_id = ?'),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
