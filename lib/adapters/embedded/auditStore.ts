import { AuditRecordSchema, type AuditRecord } from '../../domain/index.js';
import { type AuditFilter, type AuditStore, ConflictError, type Page, type PageOptions } from '../../ports/index.js';
import { pageIn, pageWindow } from './pageWindow.js';
import { deleteLimit, utcIso } from '../shared/index.js';
import type { SqliteDatabase } from './sqlite.js';
import { StatementCache } from './statementCache.js';
import { ensureOrganizationColumn } from './organizationColumn.js';

/**
 * The audit trail on SQLite: `st_audit` (id, at in UTC, actor id and name, entity type and id, body) with an
 * index per filter ending in (at, id). Append-only; records are validated with AuditRecordSchema on the way in.
 */
export class EmbeddedAuditStore implements AuditStore {
  private readonly statements: StatementCache;
  private readonly insertRow;

  constructor(db: SqliteDatabase) {
    db.exec(`CREATE TABLE IF NOT EXISTS st_audit (
        id TEXT PRIMARY KEY, at TEXT NOT NULL, actor_id TEXT NOT NULL, actor_name TEXT NOT NULL,
        entity_type TEXT, entity_id TEXT, body TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS st_audit_at ON st_audit (at, id);
      CREATE INDEX IF NOT EXISTS st_audit_actor ON st_audit (actor_id, at, id);
      CREATE INDEX IF NOT EXISTS st_audit_actor_name ON st_audit (actor_name, at, id);
      CREATE INDEX IF NOT EXISTS st_audit_entity ON st_audit (entity_type, entity_id, at, id);`);
    ensureOrganizationColumn(db, 'st_audit', 'from-body', 'organization, at, id');
    this.statements = new StatementCache(db);
    this.insertRow = db.prepare<[string, string, string, string, string | null, string | null, string]>(
      'INSERT INTO st_audit (id, at, actor_id, actor_name, entity_type, entity_id, body) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    );
  }

  async createAuditRecord(record: AuditRecord): Promise<AuditRecord> {
    const valid = AuditRecordSchema.parse(record);
    const inserted = this.insertRow.run(
      valid.id,
      utcIso(valid.at, 'at'),
      valid.actor.id,
      valid.actor.name,
      valid.entity_type,
      valid.entity_id,
      JSON.stringify(valid),
    );
    if (inserted.changes === 0) throw new ConflictError('audit record', valid.id);
    return valid;
  }

  async listAuditRecords(filter: AuditFilter = {}, options?: PageOptions): Promise<Page<AuditRecord>> {
    const window = pageWindow(options);
    const { sql, params } = auditWhere(filter);
    const rows = this.statements
      .get<{ body: string }>(`SELECT body FROM st_audit WHERE ${sql} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, window.limit, window.offset);
    const items = rows.map((r) => JSON.parse(r.body) as AuditRecord);
    const total =
      window.offset === 0 && items.length < window.limit
        ? items.length
        : (this.statements.get<{ n: number }>(`SELECT count(*) AS n FROM st_audit WHERE ${sql}`).get(...params)?.n ?? 0);
    return pageIn(items, total, window);
  }

  async deleteAuditRecords(filter: AuditFilter & { until: string }, options: { limit?: number } = {}): Promise<number> {
    const { sql, params } = auditWhere(filter);
    const limit = deleteLimit(options.limit);
    return this.statements
      .get(`DELETE FROM st_audit WHERE rowid IN (SELECT rowid FROM st_audit WHERE ${sql} ORDER BY at, id LIMIT ?)`)
      .run(...params, limit).changes;
  }
}

/** The WHERE clause of a filter: `since` inclusive, `until` exclusive, both compared in UTC. */
function auditWhere(filter: AuditFilter): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  if (filter.actor !== undefined) {
    parts.push('(actor_id = ? OR actor_name = ?)');
    params.push(filter.actor, filter.actor);
  }
  for (const column of ['organization', 'entity_type', 'entity_id'] as const) {
    const value = filter[column];
    if (value !== undefined) {
      parts.push(`${column} = ?`);
      params.push(value);
    }
  }
  if (filter.since !== undefined) {
    parts.push('at >= ?');
    params.push(utcIso(filter.since, 'since'));
  }
  if (filter.until !== undefined) {
    parts.push('at < ?');
    params.push(utcIso(filter.until, 'until'));
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}
