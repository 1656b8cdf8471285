import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './sqlite.js';

/**
 * A worker thread's code (CommonJS, run with `eval`, so the same text works from the TypeScript sources and from
 * dist/): for each message (a database file), it opens its own connection, runs a PASSIVE checkpoint (copies the
 * committed WAL frames into the database file without blocking readers or writers) and closes it again.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
parentPort.on('message', (file) => {
  try {
    const db = new Database(file, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      const [row] = db.pragma('wal_checkpoint(PASSIVE)');
      parentPort.postMessage({ ok: true, log: row.log, checkpointed: row.checkpointed });
    } finally {
      db.close();
    }
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error && error.message || error) });
  }
});`;

/**
 * The WAL file's size after it restarts (`journal_size_limit` of the connection, set only where it is unlimited,
 * SQLite's default): a bulk import's WAL grows with the import (the next batch appends while the worker checkpoints
 * the last one), and without a limit the file would keep that size (465 MiB after 300,000 cases) once it is reused.
 */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** What one background checkpoint did (the WAL's frames and how many of them are now in the database file). */
export interface CheckpointReport {
  ok: boolean;
  log?: number;
  checkpointed?: number;
  error?: string;
}

/**
 * Keeps the WAL checkpoint of bulk writes off the event loop. SQLite checkpoints after any commit that leaves the
 * WAL over `wal_autocheckpoint` pages (1,000), on the committing connection: after an import of 100,000 cases that
 * is the whole import's pages copied again, ~13 µs of the ~65 µs per case, with the event loop blocked. `bulk(write)`
 * runs a write with the connection's automatic checkpoint off, then hands the checkpoint to a worker thread with its
 * own connection (checkpointing does not block the main connection's readers or writers); the setting is restored
 * when no bulk write is running and the worker has caught up. What is stored, and when it is durable, does not
 * change: the WAL is the database until it is checkpointed, and a crash at any point recovers from it. A database
 * that is not a WAL file (in memory, another journal mode) writes as before.
 */
export class BackgroundCheckpoint {
  private readonly enabled: boolean;
  private readonly autocheckpoint: number;
  private worker: Worker | undefined;
  private bulkWrites = 0;
  private running = false;
  private again = false;
  private waiters: Array<() => void> = [];
  private last: CheckpointReport | undefined;

  constructor(private readonly db: SqliteDatabase) {
    this.enabled = !db.memory && String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
    this.autocheckpoint = this.enabled ? Number(db.pragma('wal_autocheckpoint', { simple: true })) : 0;
    if (this.enabled && Number(db.pragma('journal_size_limit', { simple: true })) < 0)
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  }

  /** Runs `write` (synchronous: a transaction) without the automatic checkpoint; the checkpoint follows in the worker. */
  bulk<T>(write: () => T): T {
    if (!this.enabled || this.autocheckpoint <= 0) return write();
    if (this.bulkWrites++ === 0 && !this.running) this.db.pragma('wal_autocheckpoint = 0');
    try {
      return write();
    } finally {
      this.bulkWrites--;
      this.schedule();
    }
  }

  /** Resolves when no background checkpoint is running or due, with the last one's report (for tests and shutdown). */
  settled(): Promise<CheckpointReport | undefined> {
    if (!this.running) return Promise.resolve(this.last);
    return new Promise((resolve) => this.waiters.push(() => resolve(this.last)));
  }

  private schedule(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.post();
  }

  private post(): void {
    const worker = this.workerThread();
    worker.ref();
    worker.postMessage(this.db.name);
  }

  private finished(report: CheckpointReport): void {
    this.last = report;
    if (this.again && this.db.open) {
      this.again = false;
      this.post();
      return;
    }
    this.again = false;
    this.running = false;
    this.worker?.unref();
    // back to SQLite's own checkpoints once the worker has caught up (a failed one included: the connection then
    // checkpoints after its next commit, as it always did)
    if (this.bulkWrites === 0 && this.db.open) this.db.pragma(`wal_autocheckpoint = ${this.autocheckpoint}`);
    for (const wake of this.waiters.splice(0)) wake();
  }

  private workerThread(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_CODE, { eval: true, workerData: { driver } });
    worker.on('message', (report: CheckpointReport) => this.finished(report));
    worker.on('error', (error) => {
      this.worker = undefined;
      this.finished({ ok: false, error: error.message });
    });
    // ref'd only while a checkpoint runs (`post`): an idle worker never keeps the process alive
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
