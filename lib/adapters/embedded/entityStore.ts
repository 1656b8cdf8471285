import type { z } from 'zod';
import type Database from 'better-sqlite3';
import {
  ConflictError,
  type EntityListOptions,
  type EntityStore,
  NotFoundError,
  type Page,
  type OrganizationScope,
  PreconditionFailedError,
  type WithEtag,
} from '../../ports/index.js';
import { pageIn, pageWindow } from './pageWindow.js';
import { newEtag, withoutEtag, type SqliteDatabase } from './sqlite.js';
import { ensureOrganizationColumn } from './organizationColumn.js';

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS st_entities (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  body TEXT NOT NULL,
  etag TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (kind, id)
);`;

interface EntityRow {
  body: string;
  etag: string;
}

/**
 * An EntityStore on one SQLite table shared by every kind (`st_entities`, keyed (kind, id)). Entities are
 * validated with `schema` on the way in (a ZodError is thrown as is) and on the way out; a `_etag` passed back
 * from a read is dropped before validation. `list` is ordered by id.
 */
export class EmbeddedEntityStore<T extends { id: string }> implements EntityStore<T> {
  private readonly insertRow;
  private readonly upsertRow;
  private readonly updateRow;
  private readonly selectRow;
  private readonly deleteRow;
  private readonly selectPage;
  private readonly countRows;
  private readonly db: SqliteDatabase;
  private readonly filteredStatements = new Map<
    string,
    { page: Database.Statement<unknown[], EntityRow>; count: Database.Statement<unknown[], { n: number }> }
  >();

  constructor(
    db: SqliteDatabase,
    /** the entity kind, also its name in error messages: `suite`, `tool_catalog`, `target`, `client`, ... */
    private readonly kind: string,
    private readonly schema: z.ZodType<T>,
  ) {
    db.exec(SCHEMA_SQL);
    ensureOrganizationColumn(db, 'st_entities', 'from-body', 'kind, organization, id');
    this.insertRow = db.prepare<[string, string, string, string, string, string]>(
      `INSERT INTO st_entities (kind, id, body, etag, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (kind, id) DO NOTHING`,
    );
    this.upsertRow = db.prepare<[string, string, string, string, string, string]>(
      `INSERT INTO st_entities (kind, id, body, etag, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body, etag = excluded.etag, updated_at = excluded.updated_at`,
    );
    this.updateRow = db.prepare<[string, string, string, string, string, string | null, string | null]>(
      `UPDATE st_entities SET body = ?, etag = ?, updated_at = ?
       WHERE kind = ? AND id = ? AND (? IS NULL OR etag = ?)`,
    );
    this.selectRow = db.prepare<[string, string], EntityRow>('SELECT body, etag FROM st_entities WHERE kind = ? AND id = ?');
    this.deleteRow = db.prepare<[string, string]>('DELETE FROM st_entities WHERE kind = ? AND id = ?');
    this.selectPage = db.prepare<[string, number, number], EntityRow>(
      'SELECT body, etag FROM st_entities WHERE kind = ? ORDER BY id LIMIT ? OFFSET ?',
    );
    this.countRows = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM st_entities WHERE kind = ?');
    this.db = db;
  }

  async create(entity: T): Promise<WithEtag<T>> {
    const valid = this.validate(entity);
    const etag = newEtag();
    const now = new Date().toISOString();
    const { changes } = this.insertRow.run(this.kind, valid.id, JSON.stringify(valid), etag, now, now);
    if (changes === 0) throw new ConflictError(this.kind, valid.id);
    return { ...valid, _etag: etag };
  }

  async upsert(entity: T): Promise<WithEtag<T>> {
    const valid = this.validate(entity);
    const etag = newEtag();
    const now = new Date().toISOString();
    this.upsertRow.run(this.kind, valid.id, JSON.stringify(valid), etag, now, now);
    return { ...valid, _etag: etag };
  }

  async get(id: string): Promise<WithEtag<T> | undefined> {
    const row = this.selectRow.get(this.kind, id);
    return row ? this.fromRow(row) : undefined;
  }

  async replace(entity: T, options: { ifMatch?: string } = {}): Promise<WithEtag<T>> {
    const valid = this.validate(entity);
    const etag = newEtag();
    const ifMatch = options.ifMatch ?? null;
    const { changes } = this.updateRow.run(JSON.stringify(valid), etag, new Date().toISOString(), this.kind, valid.id, ifMatch, ifMatch);
    if (changes === 0) {
      if (!this.selectRow.get(this.kind, valid.id)) throw new NotFoundError(this.kind, valid.id);
      throw new PreconditionFailedError(this.kind, valid.id);
    }
    return { ...valid, _etag: etag };
  }

  async delete(id: string): Promise<void> {
    this.deleteRow.run(this.kind, id);
  }

  async list(options: EntityListOptions & OrganizationScope = {}): Promise<Page<WithEtag<T>>> {
    const window = pageWindow(options);
    const org = options.organization;
    if (!options.hideOwned && org === undefined) {
      const rows = this.selectPage.all(this.kind, window.limit, window.offset);
      return pageIn(
        rows.map((row) => this.fromRow(row)),
        this.countRows.get(this.kind)?.n ?? 0,
        window,
      );
    }
    // owned entities (the suites and targets of /api/evaluate jobs) left out by their `owner`; an organization's own
    const conditions = ['kind = ?'];
    const params: unknown[] = [this.kind];
    if (options.hideOwned) conditions.push("json_extract(body, '$.owner') IS NULL");
    if (org !== undefined) {
      conditions.push('organization = ?');
      params.push(org);
    }
    const statements = this.filtered(conditions.join(' AND '));
    const rows = statements.page.all(...params, window.limit, window.offset);
    const total = statements.count.get(...params)?.n ?? 0;
    return pageIn(
      rows.map((row) => this.fromRow(row)),
      total,
      window,
    );
  }

  private filtered(where: string): { page: Database.Statement<unknown[], EntityRow>; count: Database.Statement<unknown[], { n: number }> } {
    let statements = this.filteredStatements.get(where);
    if (!statements) {
      statements = {
        page: this.db.prepare<unknown[], EntityRow>(`SELECT body, etag FROM st_entities WHERE ${where} ORDER BY id LIMIT ? OFFSET ?`),
        count: this.db.prepare<unknown[], { n: number }>(`SELECT count(*) AS n FROM st_entities WHERE ${where}`),
      };
      this.filteredStatements.set(where, statements);
    }
    return statements;
  }

  private validate(entity: T): T {
    return this.schema.parse(withoutEtag(entity));
  }

  private fromRow(row: EntityRow): WithEtag<T> {
    return { ...this.schema.parse(JSON.parse(row.body)), _etag: row.etag };
  }
}
