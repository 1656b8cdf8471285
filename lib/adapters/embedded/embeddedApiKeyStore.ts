import type Database from 'better-sqlite3';
import { organizationOf, type Role } from '../../domain/index.js';
import { type ApiKeyRecord, type ApiKeyStore, ConflictError, type OrganizationScope } from '../../ports/index.js';
import { ensureOrganizationColumn } from './organizationColumn.js';

interface Row {
  id: string;
  name: string;
  roles: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  organization: string;
}

/** API keys in SQLite (hashes only). */
export class EmbeddedApiKeyStore implements ApiKeyStore {
  constructor(private readonly db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS st_api_keys (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, roles TEXT NOT NULL, secret_hash TEXT NOT NULL,
      created_at TEXT NOT NULL, revoked_at TEXT, last_used_at TEXT)`);
    // keys made before organizations act in `default`
    ensureOrganizationColumn(db, 'st_api_keys', 'stored');
  }

  async createApiKey(record: ApiKeyRecord): Promise<void> {
    try {
      this.db
        .prepare(
          'INSERT INTO st_api_keys (id, name, roles, secret_hash, created_at, revoked_at, last_used_at, organization) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          record.id,
          record.name,
          JSON.stringify(record.roles),
          record.secret_hash,
          record.created_at,
          record.revoked_at,
          record.last_used_at,
          organizationOf(record),
        );
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new ConflictError('api key', record.id);
      throw err;
    }
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM st_api_keys WHERE id = ?').get(id) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  async listApiKeys(options: OrganizationScope = {}): Promise<ApiKeyRecord[]> {
    const rows =
      options.organization === undefined
        ? this.db.prepare('SELECT * FROM st_api_keys ORDER BY created_at, id').all()
        : this.db.prepare('SELECT * FROM st_api_keys WHERE organization = ? ORDER BY created_at, id').all(options.organization);
    return (rows as Row[]).map(toRecord);
  }

  async revokeApiKey(id: string, at: string): Promise<void> {
    this.db.prepare('UPDATE st_api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
  }

  async countApiKeys(): Promise<number> {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM st_api_keys WHERE revoked_at IS NULL').get() as { n: number }).n;
  }
}

function toRecord(row: Row): ApiKeyRecord {
  return { ...row, roles: JSON.parse(row.roles) as Role[] };
}
