import type Database from 'better-sqlite3';
import { createChangeFeedSchema } from './schema.js';

/** A batch given up after its retries ran out: recorded (and logged), never silently dropped. */
export interface FailedBatch {
  leaseId: string;
  containerName: string;
  firstSeq: number;
  lastSeq: number;
  documentIds: string[];
  attempts: number;
  error: string;
  failedAt: Date;
}

interface FailedBatchRow {
  lease_id: string;
  container: string;
  first_seq: number;
  last_seq: number;
  document_ids: string;
  attempts: number;
  error: string;
  failed_at: number;
}

/** Checkpoints (`cf_leases`) and given-up batches (`cf_failed_batches`) of the change-feed triggers. */
export class LeaseStore {
  private readonly select: Database.Statement<[string, string], { seq: number }>;
  private readonly upsert: Database.Statement<[string, string, number, number]>;
  private readonly insertFailed: Database.Statement<[string, string, number, number, string, number, string, number]>;
  private readonly selectFailed: Database.Statement<[], FailedBatchRow>;
  private readonly giveUpTx: (batch: FailedBatch) => void;

  constructor(db: Database.Database) {
    createChangeFeedSchema(db);
    this.select = db.prepare('SELECT seq FROM cf_leases WHERE lease_id = ? AND container = ?');
    this.upsert = db.prepare(
      `INSERT INTO cf_leases (lease_id, container, seq, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (lease_id, container) DO UPDATE SET seq = excluded.seq, updated_at = excluded.updated_at`,
    );
    this.insertFailed = db.prepare(
      `INSERT INTO cf_failed_batches (lease_id, container, first_seq, last_seq, document_ids, attempts, error, failed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectFailed = db.prepare('SELECT * FROM cf_failed_batches ORDER BY id');
    this.giveUpTx = db.transaction((b: FailedBatch) => {
      this.insertFailed.run(
        b.leaseId,
        b.containerName,
        b.firstSeq,
        b.lastSeq,
        JSON.stringify(b.documentIds),
        b.attempts,
        b.error,
        b.failedAt.getTime(),
      );
      this.upsert.run(b.leaseId, b.containerName, b.lastSeq, b.failedAt.getTime());
    });
  }

  get(leaseId: string, containerName: string): number | undefined {
    return this.select.get(leaseId, containerName)?.seq;
  }

  save(leaseId: string, containerName: string, seq: number, now: number): void {
    this.upsert.run(leaseId, containerName, seq, now);
  }

  /** Records the batch as failed and moves the checkpoint past it, in one transaction. */
  giveUp(batch: FailedBatch): void {
    this.giveUpTx(batch);
  }

  listFailed(): FailedBatch[] {
    return this.selectFailed.all().map((r) => ({
      leaseId: r.lease_id,
      containerName: r.container,
      firstSeq: r.first_seq,
      lastSeq: r.last_seq,
      documentIds: JSON.parse(r.document_ids) as string[],
      attempts: r.attempts,
      error: r.error,
      failedAt: new Date(r.failed_at),
    }));
  }
}
