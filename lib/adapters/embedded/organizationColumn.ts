import { DEFAULT_ORGANIZATION } from '../../domain/index.js';
import type { SqliteDatabase } from './sqlite.js';

/**
 * The migration that gives a table its `organization` column, run by each store when it opens its tables
 * (idempotent: nothing happens when the column exists). Rows written before organizations existed read as `default`:
 * - `from-body`: a generated (virtual) column over the JSON body, `COALESCE(body.organization, 'default')`, for the
 *   tables that keep the entity's JSON beside its filter columns (entities, runs, alerts, audit): no rewrite, and a
 *   body written later with the field is filtered by it at once;
 * - `stored`: a plain column with default `default`, written by the store (test cases keep bodies in another
 *   table; API keys have no body).
 * `index` (column list) adds an index that starts with the organization, so an organization's pages stay index-only.
 */
export function ensureOrganizationColumn(db: SqliteDatabase, table: string, how: 'from-body' | 'stored', index?: string): void {
  const columns = db.prepare(`PRAGMA table_xinfo(${table})`).all() as { name: string }[];
  if (!columns.some((c) => c.name === 'organization')) {
    const definition =
      how === 'from-body'
        ? `TEXT GENERATED ALWAYS AS (COALESCE(json_extract(body, '$.organization'), '${DEFAULT_ORGANIZATION}')) VIRTUAL`
        : `TEXT NOT NULL DEFAULT '${DEFAULT_ORGANIZATION}'`;
    db.exec(`ALTER TABLE ${table} ADD COLUMN organization ${definition}`);
  }
  if (index) db.exec(`CREATE INDEX IF NOT EXISTS ${table}_by_organization ON ${table} (${index})`);
}
