import type Database from 'better-sqlite3';
import { KeyedListeners } from '../servicebus/index.js';
import { createChangeFeedSchema } from './schema.js';

/** One write as the change log keeps it: `body` is the document's JSON text as written. */
export interface ChangeLogEntry {
  seq: number;
  id: string;
  body: string;
}

/** Reserved for future options (the constructor takes `{}` or nothing today). */
export type ChangeLogOptions = Record<string, never>;

/** A document as the change log and containers accept it: any JSON object with a string `id`. */
export type FeedDocument = Record<string, unknown> & { id: string };

export function assertDocumentId(doc: unknown, containerName: string): asserts doc is FeedDocument {
  const id = typeof doc === 'object' && doc !== null ? (doc as { id?: unknown }).id : undefined;
  if (typeof id !== 'string' || id === '') {
    throw new TypeError(`A document written to "${containerName}" needs a non-empty string "id", got ${JSON.stringify(id) ?? 'none'}.`);
  }
}

/**
 * The change log of the embedded containers: one row per write, in write order, under a sequence number that only
 * grows. Appends are synchronous and join the caller's `db.transaction` (as a savepoint) so a store can write its
 * row and the log entry atomically.
 */
export class ChangeLog {
  private readonly listeners = new KeyedListeners();
  private readonly insert: Database.Statement<[string, string, string]>;
  private readonly selectAfter: Database.Statement<[string, number, number], ChangeLogEntry>;
  private readonly selectLatest: Database.Statement<[string], { seq: number | null }>;
  private readonly deleteThrough: Database.Statement<[string, number]>;
  private readonly appendTx: (containerName: string, entries: Array<{ id: string; body: string }>) => void;

  constructor(db: Database.Database, _options: ChangeLogOptions = {}) {
    createChangeFeedSchema(db);
    this.insert = db.prepare('INSERT INTO cf_log (container, id, body) VALUES (?, ?, ?)');
    this.selectAfter = db.prepare('SELECT seq, id, body FROM cf_log WHERE container = ? AND seq > ? ORDER BY seq LIMIT ?');
    this.selectLatest = db.prepare('SELECT max(seq) AS seq FROM cf_log WHERE container = ?');
    this.deleteThrough = db.prepare('DELETE FROM cf_log WHERE container = ? AND seq <= ?');
    this.appendTx = db.transaction((containerName: string, entries: Array<{ id: string; body: string }>) => {
      for (const entry of entries) this.insert.run(containerName, entry.id, entry.body);
    });
  }

  /** Records writes of whole documents (serialised here), in array order. */
  append(containerName: string, docs: FeedDocument[]): void {
    for (const doc of docs) assertDocumentId(doc, containerName);
    this.appendJson(
      containerName,
      docs.map((doc) => ({ id: doc.id, body: JSON.stringify(doc) })),
    );
  }

  /** Same as `append` for callers that already hold each document's JSON text (no second serialisation). */
  appendJson(containerName: string, entries: Array<{ id: string; body: string }>): void {
    if (entries.length === 0) return;
    this.appendTx(containerName, entries);
    this.listeners.emit(containerName);
  }

  /** Entries with seq > afterSeq, oldest first, at most `limit`. */
  read(containerName: string, afterSeq: number, limit: number): ChangeLogEntry[] {
    return this.selectAfter.all(containerName, afterSeq, limit);
  }

  /** The newest entry's seq for the container, 0 when it has none. */
  latestSeq(containerName: string): number {
    return this.selectLatest.get(containerName)?.seq ?? 0;
  }

  /** Deletes entries with seq <= throughSeq (e.g. below every checkpoint); returns how many. Never automatic. */
  prune(containerName: string, throughSeq: number): number {
    return this.deleteThrough.run(containerName, throughSeq).changes;
  }

  /** Calls `listener` after an append to the container through this instance. */
  onAppend(containerName: string, listener: () => void): () => void {
    return this.listeners.on(containerName, listener);
  }
}
