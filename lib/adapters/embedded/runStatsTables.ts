import type Database from 'better-sqlite3';

/**
 * Tables of the embedded run-statistics store:
 * - `st_run_stats`: one row per run, the fold's state (RunStatsState JSON), the run's case count and when it
 *   last changed;
 * - `st_run_outcomes`: the outcome counted for each (run, case), compact JSON (`encodeOutcome`, ~120 bytes), so
 *   a redelivery is recognised by string equality and a retry subtracts exactly what was added;
 * - `temp.st_run_recount`: per-connection staging of a recount (gone with the connection, so a crash mid-recount
 *   leaves nothing behind).
 */
export function createRunStatsTables(db: Database.Database): void {
  db.exec(`
CREATE TABLE IF NOT EXISTS st_run_stats (
  run_id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  total INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS st_run_outcomes (
  run_id TEXT NOT NULL,
  test_case_id TEXT NOT NULL,
  outcome TEXT NOT NULL,
  PRIMARY KEY (run_id, test_case_id)
) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS st_run_recount (
  recount_id INTEGER NOT NULL,
  test_case_id TEXT NOT NULL,
  attempt_number INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  PRIMARY KEY (recount_id, test_case_id)
) WITHOUT ROWID;
`);
}

export interface RunStatsRow {
  state: string;
  total: number;
  updated_at: string;
}

export interface OutcomeRow {
  test_case_id: string;
  outcome: string;
}
