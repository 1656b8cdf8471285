import type { SqliteDatabase } from './sqlite.js';

/**
 * Tables of the embedded scorecard store (the hot path of a run: ~400,000 inserts).
 * - `st_scorecards`: a rowid table (the body stays out of the indexes); the rowid, given at the first write and
 *   kept on replacement, is the list and iteration order within a run. UNIQUE (run_id, test_case_id) finds a
 *   case's card; `st_scorecards_by_run` (run_id, rowid) serves iteration and unfiltered pages; the outcome index
 *   covers every filter column. Apart from the unique key, each index grows at the end of a few ranges, so a
 *   batch touches few pages whatever the case ids look like.
 * - `st_scorecard_tags`: one row per (run, tag, card) for the `tag` filter, repeating the filter columns so a tag
 *   query (alone or with other filters) is answered from this table's key in card order without visiting cards;
 *   `tags` (JSON) on the card row says which rows to remove when a card is replaced.
 */
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS st_scorecards (
  run_id TEXT NOT NULL,
  test_case_id TEXT NOT NULL,
  attempt_number INTEGER NOT NULL,
  overall_passed INTEGER NOT NULL,
  failing_stage TEXT,
  error_code TEXT,
  category TEXT,
  content_hash TEXT NOT NULL,
  tags TEXT NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (run_id, test_case_id)
);
CREATE INDEX IF NOT EXISTS st_scorecards_by_run ON st_scorecards (run_id);
CREATE INDEX IF NOT EXISTS st_scorecards_by_outcome ON st_scorecards (run_id, overall_passed, failing_stage, error_code, category);
CREATE TABLE IF NOT EXISTS st_scorecard_tags (
  run_id TEXT NOT NULL,
  tag TEXT NOT NULL,
  card INTEGER NOT NULL,
  overall_passed INTEGER NOT NULL,
  failing_stage TEXT,
  error_code TEXT,
  category TEXT,
  PRIMARY KEY (run_id, tag, card)
) WITHOUT ROWID;`;

export function createScorecardTables(db: SqliteDatabase): void {
  db.transaction(() => {
    upgradeTagRows(db);
    db.exec(SCHEMA_SQL);
  })();
}

/** Databases written before the tag rows carried the filter columns: rebuild them from the cards. */
function upgradeTagRows(db: SqliteDatabase): void {
  const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('st_scorecard_tags')").all();
  if (columns.length === 0 || columns.some((column) => column.name === 'overall_passed')) return;
  db.exec('DROP TABLE st_scorecard_tags');
  db.exec(SCHEMA_SQL);
  db.exec(`INSERT OR IGNORE INTO st_scorecard_tags (run_id, tag, card, overall_passed, failing_stage, error_code, category)
    SELECT s.run_id, t.value, s.rowid, s.overall_passed, s.failing_stage, s.error_code, s.category FROM st_scorecards s, json_each(s.tags) t`);
}
