import { organizationCondition } from './cosmosOrganization.js';
import { BulkOperationType, type Container, type JSONObject, type SqlParameter } from '@azure/cosmos';
import { RunSchema, type Run, type RunStatus } from '../../domain/index.js';
import { NotFoundError, type Page, pageOf, type PageOptions, type RunFilter, type RunStore, type WithEtag } from '../../ports/index.js';
import { utcIso } from '../shared/index.js';
import { assertBulk, executeBulk, queryAll } from './cosmosBulk.js';
import { cosmosStatus, readOrUndefined, toStoreError } from './cosmosErrors.js';
import { toCosmosId } from './cosmosIds.js';
import { pageWindow, queryWindow } from './cosmosPaging.js';

/** A run in the `runs` container (partition key /id). */
interface RunDocument {
  id: string;
  run_id: string;
  status: RunStatus;
  client_id: string | null;
  suite_id: string;
  target_id: string;
  /** created_at in UTC as `Date#toISOString` writes it, so bounds compare as text */
  created_utc: string;
  body: Run;
  _etag?: string;
}

/** A shard in the `runshards` container (partition key /run_id). */
interface ShardDocument {
  id: string;
  run_id: string;
  index: number;
  ids: string[];
}

/** ETag conflicts retried by `updateRun` before it gives up (each retry re-reads the run). */
const UPDATE_ATTEMPTS = 20;

const ENTITY = 'run';

function toDocument(run: Run): RunDocument {
  return {
    id: toCosmosId(run.id),
    run_id: run.id,
    status: run.status,
    client_id: run.client_id,
    suite_id: run.suite_id,
    target_id: run.target_id,
    created_utc: utcIso(run.created_at, 'created_at'),
    body: run,
  };
}

const withEtag = (doc: RunDocument): WithEtag<Run> => ({ ...doc.body, _etag: doc._etag ?? '' });

/**
 * Runs and their shards on Cosmos DB. `updateRun` is a read / check / ETag-checked replace loop, so of two
 * concurrent transitions out of one status exactly one applies. `listRuns` is newest first (composite index on
 * created_utc, run_id descending). Runs are validated with RunSchema on the way in.
 */
export class CosmosRunStore implements RunStore {
  constructor(
    private readonly runs: Container,
    private readonly shards: Container,
  ) {}

  async createRun(run: Run): Promise<WithEtag<Run>> {
    const { _etag, ...plain } = run as Run & { _etag?: string };
    const doc = toDocument(RunSchema.parse(plain));
    try {
      return withEtag((await this.runs.items.create<RunDocument>(doc)).resource!);
    } catch (error) {
      throw toStoreError(error, ENTITY, run.id);
    }
  }

  async getRun(id: string): Promise<WithEtag<Run> | undefined> {
    const key = toCosmosId(id);
    const doc = await readOrUndefined(this.runs.item(key, key).read<RunDocument>());
    return doc && withEtag(doc);
  }

  async updateRun(
    id: string,
    patch: Partial<Omit<Run, 'id'>>,
    options: { from?: readonly RunStatus[] } = {},
  ): Promise<WithEtag<Run> | undefined> {
    const key = toCosmosId(id);
    for (let attempt = 1; ; attempt++) {
      const current = await readOrUndefined(this.runs.item(key, key).read<RunDocument>());
      if (!current) throw new NotFoundError(ENTITY, id);
      if (options.from && !options.from.includes(current.body.status)) return undefined;
      const next: Record<string, unknown> = { ...current.body };
      for (const [field, value] of Object.entries(patch)) if (value !== undefined && field !== 'id') next[field] = value;
      const doc = toDocument(RunSchema.parse(next));
      try {
        const { resource } = await this.runs
          .item(key, key)
          .replace<RunDocument>(doc, { accessCondition: { type: 'IfMatch', condition: current._etag! } });
        return withEtag(resource!);
      } catch (error) {
        const status = cosmosStatus(error);
        if (status === 404) throw new NotFoundError(ENTITY, id);
        if (status !== 412 || attempt >= UPDATE_ATTEMPTS) throw toStoreError(error, ENTITY, id);
      }
    }
  }

  async listRuns(filter: RunFilter = {}, options: PageOptions = {}): Promise<Page<WithEtag<Run>>> {
    const window = pageWindow(options);
    const { where, parameters } = runWhere(filter);
    const { docs, total } = await queryWindow<RunDocument>(
      this.runs,
      { where, parameters, orderBy: 'c.created_utc DESC, c.run_id DESC' },
      window,
    );
    return pageOf(docs.map(withEtag), total, window);
  }

  async putShards(runId: string, shards: readonly (readonly string[])[]): Promise<void> {
    const existing = await queryAll<number>(
      this.shards,
      { query: 'SELECT VALUE c.index FROM c WHERE c.run_id = @run', parameters: [{ name: '@run', value: runId }] },
      runId,
    );
    const upserts = shards.map((ids, index) => ({
      operationType: BulkOperationType.Upsert,
      partitionKey: runId,
      resourceBody: { id: String(index), run_id: runId, index, ids: [...ids] } satisfies ShardDocument as unknown as JSONObject,
    }));
    const deletes = existing
      .filter((index) => index >= shards.length)
      .map((index) => ({ operationType: BulkOperationType.Delete, id: String(index), partitionKey: runId }));
    assertBulk(
      await executeBulk(this.shards, [...upserts, ...deletes]),
      (status) => status === 200 || status === 201 || status === 204 || status === 404,
    );
  }

  async getShard(runId: string, index: number): Promise<string[] | undefined> {
    const doc = await readOrUndefined(this.shards.item(String(index), runId).read<ShardDocument>());
    return doc?.ids;
  }

  async deleteShards(runId: string): Promise<void> {
    const existing = await queryAll<number>(
      this.shards,
      { query: 'SELECT VALUE c.index FROM c WHERE c.run_id = @run', parameters: [{ name: '@run', value: runId }] },
      runId,
    );
    const deletes = existing.map((index) => ({ operationType: BulkOperationType.Delete, id: String(index), partitionKey: runId }));
    if (deletes.length) assertBulk(await executeBulk(this.shards, deletes), (status) => status === 204 || status === 404);
  }

  async deleteRun(id: string): Promise<void> {
    // shards first: a crash in between leaves the run, whose next delete finishes the job
    await this.deleteShards(id);
    const docId = toCosmosId(id);
    try {
      await this.runs.item(docId, docId).delete();
    } catch (error) {
      if (cosmosStatus(error) !== 404) throw error;
    }
  }
}

/** The WHERE clause of a run filter (created_after inclusive, created_before exclusive, compared in UTC). */
function runWhere(filter: RunFilter): { where: string; parameters: SqlParameter[] } {
  const conditions: string[] = [];
  const parameters: SqlParameter[] = [];
  const add = (condition: string, value: string) => {
    const name = `@p${parameters.length}`;
    parameters.push({ name, value });
    conditions.push(condition.replace('?', name));
  };
  for (const field of ['client_id', 'suite_id', 'target_id', 'status'] as const) {
    const value = filter[field];
    if (value !== undefined) add(`c.${field} = ?`, value);
  }
  if (filter.organization !== undefined) {
    parameters.push({ name: '@org', value: filter.organization });
    conditions.push(organizationCondition('c.body.organization', '@org', filter.organization));
  }
  if (filter.created_after !== undefined) add('c.created_utc >= ?', utcIso(filter.created_after, 'created_after'));
  if (filter.created_before !== undefined) add('c.created_utc < ?', utcIso(filter.created_before, 'created_before'));
  return { where: conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '', parameters };
}
