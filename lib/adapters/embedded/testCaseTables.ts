import type { SqliteDatabase } from './sqlite.js';
import { DEFAULT_ORGANIZATION } from '../../domain/index.js';
import { ensureOrganizationColumn } from './organizationColumn.js';

/**
 * Tables of the embedded test-case store.
 * - `st_test_cases` is narrow (id, etag, the filter columns), so filters and counts never read a body. `rid` (the
 *   rowid, given at first insert and kept on update) is the store's order and links the body, the tag rows and
 *   the FTS5 entry.
 * - Every secondary index is keyed (filter column, rid, other filter columns, organization): writes append at the end of a
 *   range whatever the ids look like (random UUIDs included), and a filtered page is read in rid order from the
 *   index without a sort or a visit to the case rows.
 * - Tag rows repeat the filter columns for the same reason.
 * - The FTS5 table is contentless (the index only, not a second copy of the text), with contentless_delete so an
 *   entry can be replaced by rowid; its rowid is the case's rid, so matches come out in store order. `automerge`
 *   16 (default 4) merges index segments less eagerly: ~15% cheaper writes, queries read a few more segments.
 * - `st_test_case_fts_vocab` (fts5vocab, per column) reads the index's document count of a word: the similar-case
 *   search uses it to pick a question's rarer words. It stores nothing.
 */
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS st_test_cases (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  etag TEXT NOT NULL,
  category TEXT,
  complexity INTEGER NOT NULL,
  api_version TEXT,
  tags TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS st_test_case_bodies (
  rid INTEGER PRIMARY KEY,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS st_test_case_tags (
  tag TEXT NOT NULL,
  rid INTEGER NOT NULL,
  category TEXT,
  complexity INTEGER NOT NULL,
  api_version TEXT,
  organization TEXT NOT NULL DEFAULT '${DEFAULT_ORGANIZATION}',
  PRIMARY KEY (tag, rid)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS st_test_case_fts USING fts5(
  nl_query, expected_nl_response, tags,
  content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS st_test_case_fts_vocab USING fts5vocab(st_test_case_fts, 'col');`;

/**
 * The filter-column indexes end with the organization, so an organization's filtered page is still answered from the
 * index alone (every read is scoped to one organization): without it each entry sent SQLite to the case row, and a
 * filtered list page at 400,000 cases went from ~24 ms to ~110 ms at the 95th percentile. The organization's own
 * index (organization, rid, filter columns) serves pages in store order and complexity ranges (kept out of the
 * complexity index for ordered pages) the same way. Indexes of databases written before are replaced (built once,
 * when the store opens).
 */
const FILTER_INDEXES_SQL = `
DROP INDEX IF EXISTS st_test_cases_by_category;
DROP INDEX IF EXISTS st_test_cases_by_api_version;
DROP INDEX IF EXISTS st_test_cases_by_complexity;
DROP INDEX IF EXISTS st_test_cases_by_organization;
CREATE INDEX IF NOT EXISTS st_test_cases_by_organization_rid ON st_test_cases (organization, rid, complexity, category, api_version);
CREATE INDEX IF NOT EXISTS st_test_cases_by_category_org ON st_test_cases (category, rid, complexity, api_version, organization);
CREATE INDEX IF NOT EXISTS st_test_cases_by_api_version_org ON st_test_cases (api_version, rid, complexity, category, organization);
CREATE INDEX IF NOT EXISTS st_test_cases_by_complexity_org ON st_test_cases (complexity, rid, category, api_version, organization);`;

export function createTestCaseTables(db: SqliteDatabase): void {
  db.exec(SCHEMA_SQL);
  ensureOrganizationColumn(db, 'st_test_cases', 'stored');
  addTagOrganizations(db);
  db.exec(FILTER_INDEXES_SQL);
  db.exec("INSERT INTO st_test_case_fts (st_test_case_fts, rank) VALUES ('automerge', 16)");
}

/**
 * Tag rows carry their case's organization, so an organization's tag page is read from the tag table alone (a lookup
 * of every row's case doubled a common tag's page time). Tag rows written before get it from their case, once.
 */
function addTagOrganizations(db: SqliteDatabase): void {
  const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('st_test_case_tags')").all();
  if (columns.some((c) => c.name === 'organization')) return;
  db.transaction(() => {
    db.exec(`ALTER TABLE st_test_case_tags ADD COLUMN organization TEXT NOT NULL DEFAULT '${DEFAULT_ORGANIZATION}'`);
    db.exec('UPDATE st_test_case_tags SET organization = (SELECT c.organization FROM st_test_cases c WHERE c.rid = st_test_case_tags.rid)');
  })();
}
