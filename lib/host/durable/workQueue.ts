/**
 * Activity work items (dt_work) with claim semantics: a claim sets locked_until and counts an attempt; a result
 * commits by deleting the item and queueing its completion event in one transaction, and only if the item still
 * exists (so a second execution of the same item, or one for a terminated instance, is dropped).
 */
import type Database from 'better-sqlite3';
import { serializeEvent, type HistoryEvent } from './historyEvents.js';

export interface WorkItem {
  id: number;
  instanceId: string;
  executionId: string;
  taskId: number;
  name: string;
  inputJson: string;
  /** Claims so far including this one: more than 1 means the activity runs again (after a crash or lock expiry). */
  attempt: number;
}

export interface WorkResult {
  item: WorkItem;
  /** TaskCompleted or TaskFailed for item.taskId. */
  event: HistoryEvent;
}

interface WorkRow {
  id: number;
  instance_id: string;
  execution_id: string;
  task_id: number;
  name: string;
  input: string;
  attempt: number;
}

export class WorkQueue {
  readonly #db: Database.Database;
  readonly #claim;
  readonly #delete;
  readonly #enqueue;
  readonly #renew;
  readonly #release;
  readonly #releaseAll;
  readonly #nextExpiry;

  /** Expects the schema to exist (TaskHubStore creates it). */
  constructor(db: Database.Database) {
    this.#db = db;
    this.#claim = db.prepare<[number, number, number], WorkRow>(
      `UPDATE dt_work SET locked_until = ?, attempt = attempt + 1
       WHERE id IN (SELECT id FROM dt_work WHERE locked_until <= ? ORDER BY locked_until, id LIMIT ?)
       RETURNING id, instance_id, execution_id, task_id, name, input, attempt`,
    );
    this.#delete = db.prepare<[number]>('DELETE FROM dt_work WHERE id = ?');
    this.#enqueue = db.prepare<[string, string, string, number]>(
      'INSERT INTO dt_inbox (instance_id, execution_id, event, visible_at) VALUES (?, ?, ?, ?)',
    );
    this.#renew = db.prepare<[number, number]>('UPDATE dt_work SET locked_until = ? WHERE id = ?');
    this.#release = db.prepare<[number]>('UPDATE dt_work SET locked_until = 0 WHERE id = ?');
    this.#releaseAll = db.prepare<[]>('UPDATE dt_work SET locked_until = 0 WHERE locked_until > 0');
    this.#nextExpiry = db.prepare<[number], { at: number | null }>('SELECT MIN(locked_until) AS at FROM dt_work WHERE locked_until > ?');
  }

  /**
   * Claims up to `max` claimable items, locking them until now + lockDurationMs: never-claimed (and released) items
   * first, oldest first, then those whose claim expired (ordered to walk the (locked_until, id) index, no sort).
   */
  claim(now: number, lockDurationMs: number, max: number): WorkItem[] {
    if (max <= 0) return [];
    const rows = this.#claim.all(now + lockDurationMs, now, max);
    return rows
      .map((row) => ({
        id: row.id,
        instanceId: row.instance_id,
        executionId: row.execution_id,
        taskId: row.task_id,
        name: row.name,
        inputJson: row.input,
        attempt: row.attempt,
      }))
      .sort((a, b) => a.id - b.id);
  }

  /** Commits results in one transaction; returns how many were applied (the others had no work item any more). */
  complete(results: readonly WorkResult[], now: number): number {
    return this.#db.transaction(() => {
      let applied = 0;
      for (const { item, event } of results) {
        if (this.#delete.run(item.id).changes === 0) continue;
        this.#enqueue.run(item.instanceId, item.executionId, serializeEvent(event), now);
        applied += 1;
      }
      return applied;
    })();
  }

  renew(ids: readonly number[], lockedUntil: number): void {
    this.#db.transaction(() => ids.forEach((id) => this.#renew.run(lockedUntil, id)))();
  }

  release(ids: readonly number[]): void {
    this.#db.transaction(() => ids.forEach((id) => this.#release.run(id)))();
  }

  /** Makes every claimed item claimable again (the claims of a process that is gone); returns how many. */
  releaseAll(): number {
    return this.#releaseAll.run().changes;
  }

  /** When the earliest current claim expires, if any. */
  nextLockExpiry(now: number): number | undefined {
    return this.#nextExpiry.get(now)?.at ?? undefined;
  }
}
