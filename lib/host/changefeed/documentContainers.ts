import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { assertDocumentId, type ChangeLog, type FeedDocument } from './changeLog.js';
import { DocumentConflictError, DocumentNotFoundError, PreconditionFailedError } from './documentErrors.js';
import { partitionKeyOf, type PartitionKeyPaths } from './partitionKey.js';
import { createChangeFeedSchema } from './schema.js';

/** A stored document: the written fields plus the system properties `_etag` and `_ts` (seconds). */
export type StoredDocument = FeedDocument & { _etag: string; _ts: number };

export interface DocumentContainersOptions {
  now?: () => number;
  /** Partition key path(s) per container name; stored per document (informational: ids are unique per container). */
  partitionKeyPaths?: PartitionKeyPaths;
}

interface ItemRow {
  body: string;
  _etag: string;
}

/**
 * Generic embedded containers (Cosmos-like documents by container and id). Every write also appends the stored
 * document to the change log in the same transaction; deletes do not (LatestVersion change feed semantics).
 */
export class DocumentContainers {
  private readonly now: () => number;
  private readonly upsertRow: Database.Statement<[string, string, string | null, string, string, number]>;
  private readonly selectRow: Database.Statement<[string, string], ItemRow>;
  private readonly deleteRow: Database.Statement<[string, string]>;
  private readonly writeTx: (containerName: string, docs: FeedDocument[], check: (doc: FeedDocument) => void) => StoredDocument[];

  constructor(
    db: Database.Database,
    private readonly changeLog: ChangeLog,
    private readonly options: DocumentContainersOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    createChangeFeedSchema(db);
    this.upsertRow = db.prepare(
      `INSERT INTO doc_items (container, id, partition_key, body, _etag, _ts) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (container, id) DO UPDATE SET partition_key = excluded.partition_key, body = excluded.body,
         _etag = excluded._etag, _ts = excluded._ts`,
    );
    this.selectRow = db.prepare('SELECT body, _etag FROM doc_items WHERE container = ? AND id = ?');
    this.deleteRow = db.prepare('DELETE FROM doc_items WHERE container = ? AND id = ?');
    this.writeTx = db.transaction((containerName: string, docs: FeedDocument[], check: (doc: FeedDocument) => void) =>
      this.writeRows(containerName, docs, check),
    );
  }

  /** Creates or replaces each document (one transaction) and returns them as stored. */
  upsert(containerName: string, docs: FeedDocument[]): StoredDocument[] {
    return this.write(containerName, docs, () => undefined);
  }

  /** Creates a document; throws DocumentConflictError (409) when the id exists. */
  create(containerName: string, doc: FeedDocument): StoredDocument {
    return this.write(containerName, [doc], (d) => {
      if (this.selectRow.get(containerName, d.id)) throw new DocumentConflictError(containerName, d.id);
    })[0]!;
  }

  /**
   * Replaces an existing document; throws DocumentNotFoundError (404) when it is missing and
   * PreconditionFailedError (412) when `ifMatch` is given and differs from its current `_etag`.
   */
  replace(containerName: string, doc: FeedDocument, options: { ifMatch?: string } = {}): StoredDocument {
    return this.write(containerName, [doc], (d) => {
      const row = this.selectRow.get(containerName, d.id);
      if (!row) throw new DocumentNotFoundError(containerName, d.id);
      if (options.ifMatch !== undefined && options.ifMatch !== row._etag) {
        throw new PreconditionFailedError(containerName, d.id, options.ifMatch, row._etag);
      }
    })[0]!;
  }

  get(containerName: string, id: string): StoredDocument | undefined {
    const row = this.selectRow.get(containerName, id);
    return row ? (JSON.parse(row.body) as StoredDocument) : undefined;
  }

  /** Deletes a document if present (idempotent); returns whether it existed. Not recorded in the change log. */
  delete(containerName: string, id: string): boolean {
    return this.deleteRow.run(containerName, id).changes > 0;
  }

  private write(containerName: string, docs: FeedDocument[], check: (doc: FeedDocument) => void): StoredDocument[] {
    for (const doc of docs) assertDocumentId(doc, containerName);
    return docs.length === 0 ? [] : this.writeTx(containerName, docs, check);
  }

  private writeRows(containerName: string, docs: FeedDocument[], check: (doc: FeedDocument) => void): StoredDocument[] {
    const ts = Math.floor(this.now() / 1_000);
    const paths = this.options.partitionKeyPaths?.[containerName];
    const stored: StoredDocument[] = [];
    const entries: Array<{ id: string; body: string }> = [];
    for (const doc of docs) {
      check(doc);
      const item: StoredDocument = { ...doc, _etag: `"${randomUUID()}"`, _ts: ts };
      const body = JSON.stringify(item);
      this.upsertRow.run(containerName, item.id, partitionKeyOf(item, paths), body, item._etag, ts);
      stored.push(item);
      entries.push({ id: item.id, body });
    }
    this.changeLog.appendJson(containerName, entries);
    return stored;
  }
}
