import { RunSchema, type Run, type RunStatus } from '../../domain/index.js';
import {
  ConflictError,
  NotFoundError,
  type Page,
  type PageOptions,
  type RunFilter,
  type RunStore,
  type WithEtag,
} from '../../ports/index.js';
import { pageIn, pageWindow } from './pageWindow.js';
import { runFilterSql } from './runFilterSql.js';
import { utcIso } from '../shared/index.js';
import { createRunTables } from './runTables.js';
import { newEtag, withoutEtag, type SqliteDatabase } from './sqlite.js';
import { StatementCache } from './statementCache.js';

interface RunRow {
  body: string;
  etag: string;
}

type RunColumns = [
  status: string,
  clientId: string | null,
  suiteId: string,
  targetId: string,
  createdAt: string,
  body: string,
  etag: string,
];

/**
 * Runs on SQLite. A run is validated with RunSchema when created and after every patch (a ZodError is thrown as
 * is). `updateRun` reads, checks the status and writes in one transaction; a patch key set to undefined is left
 * unchanged. `listRuns` is newest first (created_at, then id, descending). Shards are replaced as a whole.
 */
export class EmbeddedRunStore implements RunStore {
  private readonly statements: StatementCache;
  private readonly insertRun;
  private readonly updateRow;
  private readonly selectRun;
  private readonly selectShard;
  private readonly patchTx: (
    id: string,
    patch: Partial<Omit<Run, 'id'>>,
    from: readonly RunStatus[] | undefined,
  ) => WithEtag<Run> | undefined;
  private readonly shardsTx: (runId: string, shards: readonly (readonly string[])[]) => void;
  private readonly deleteRunTx: (id: string) => void;

  constructor(db: SqliteDatabase) {
    createRunTables(db);
    this.statements = new StatementCache(db);
    this.insertRun = db.prepare<[string, ...RunColumns]>(
      `INSERT INTO st_runs (id, status, client_id, suite_id, target_id, created_at, body, etag) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
    );
    this.updateRow = db.prepare<[...RunColumns, string]>(
      'UPDATE st_runs SET status = ?, client_id = ?, suite_id = ?, target_id = ?, created_at = ?, body = ?, etag = ? WHERE id = ?',
    );
    this.selectRun = db.prepare<[string], RunRow>('SELECT body, etag FROM st_runs WHERE id = ?');
    this.selectShard = db.prepare<[string, number], { ids: string }>('SELECT ids FROM st_run_shards WHERE run_id = ? AND idx = ?');
    const deleteShards = db.prepare<[string]>('DELETE FROM st_run_shards WHERE run_id = ?');
    const deleteRunRow = db.prepare<[string]>('DELETE FROM st_runs WHERE id = ?');
    this.deleteRunTx = db.transaction((id: string) => {
      deleteShards.run(id);
      deleteRunRow.run(id);
    });
    const insertShard = db.prepare<[string, number, string]>('INSERT INTO st_run_shards (run_id, idx, ids) VALUES (?, ?, ?)');
    this.patchTx = db.transaction((id: string, patch: Partial<Omit<Run, 'id'>>, from: readonly RunStatus[] | undefined) => {
      const row = this.selectRun.get(id);
      if (!row) throw new NotFoundError('run', id);
      const current = JSON.parse(row.body) as Run;
      if (from && !from.includes(current.status)) return undefined;
      const next: Record<string, unknown> = { ...current };
      for (const [key, value] of Object.entries(patch)) if (value !== undefined && key !== 'id') next[key] = value;
      const run = RunSchema.parse(next);
      const etag = newEtag();
      this.updateRow.run(...columnsOf(run, etag), id);
      return { ...run, _etag: etag };
    });
    this.shardsTx = db.transaction((runId: string, shards: readonly (readonly string[])[]) => {
      deleteShards.run(runId);
      shards.forEach((ids, index) => insertShard.run(runId, index, JSON.stringify(ids)));
    });
  }

  async createRun(run: Run): Promise<WithEtag<Run>> {
    const valid = RunSchema.parse(withoutEtag(run));
    const etag = newEtag();
    if (this.insertRun.run(valid.id, ...columnsOf(valid, etag)).changes === 0) throw new ConflictError('run', valid.id);
    return { ...valid, _etag: etag };
  }

  async getRun(id: string): Promise<WithEtag<Run> | undefined> {
    const row = this.selectRun.get(id);
    return row ? fromRow(row) : undefined;
  }

  async updateRun(
    id: string,
    patch: Partial<Omit<Run, 'id'>>,
    options: { from?: readonly RunStatus[] } = {},
  ): Promise<WithEtag<Run> | undefined> {
    return this.patchTx(id, patch, options.from);
  }

  async listRuns(filter?: RunFilter, options?: PageOptions): Promise<Page<WithEtag<Run>>> {
    const window = pageWindow(options);
    const where = runFilterSql(filter);
    const rows = this.statements
      .get<RunRow>(`SELECT body, etag FROM st_runs WHERE ${where.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...where.params, window.limit, window.offset);
    const total = this.statements.get<{ n: number }>(`SELECT count(*) AS n FROM st_runs WHERE ${where.sql}`).get(...where.params)?.n ?? 0;
    return pageIn(rows.map(fromRow), total, window);
  }

  async putShards(runId: string, shards: readonly (readonly string[])[]): Promise<void> {
    this.shardsTx(runId, shards);
  }

  async getShard(runId: string, index: number): Promise<string[] | undefined> {
    const row = this.selectShard.get(runId, index);
    return row ? (JSON.parse(row.ids) as string[]) : undefined;
  }

  async deleteShards(runId: string): Promise<void> {
    this.statements.get('DELETE FROM st_run_shards WHERE run_id = ?').run(runId);
  }

  async deleteRun(id: string): Promise<void> {
    this.deleteRunTx(id);
  }
}

function columnsOf(run: Run, etag: string): RunColumns {
  return [run.status, run.client_id, run.suite_id, run.target_id, utcIso(run.created_at, 'created_at'), JSON.stringify(run), etag];
}

function fromRow(row: RunRow): WithEtag<Run> {
  return { ...(JSON.parse(row.body) as Run), _etag: row.etag };
}
