import type { HostDatabase } from '../database.js';

/** A timer's persisted schedule status (Azure's ScheduleStatus), times in epoch milliseconds. */
export interface ScheduleStatus {
  /** The schedule expression the status was computed with (a changed schedule recomputes `next`). */
  schedule: string;
  /** The last occurrence that fired; undefined before the first. */
  last: number | undefined;
  next: number;
  lastUpdated: number;
}

interface StatusRow {
  schedule: string;
  last_ms: number | null;
  next_ms: number;
  last_updated_ms: number;
}

/** Schedule status per timer function in the host database (table `tm_schedule_status`). */
export class ScheduleStatusStore {
  readonly #get: (name: string) => StatusRow | undefined;
  readonly #put: (row: StatusRow & { function_name: string }) => void;

  constructor(db: HostDatabase) {
    db.exec(`CREATE TABLE IF NOT EXISTS tm_schedule_status (
      function_name TEXT PRIMARY KEY,
      schedule TEXT NOT NULL,
      last_ms INTEGER,
      next_ms INTEGER NOT NULL,
      last_updated_ms INTEGER NOT NULL
    ) WITHOUT ROWID`);
    const get = db.prepare<[string], StatusRow>(
      'SELECT schedule, last_ms, next_ms, last_updated_ms FROM tm_schedule_status WHERE function_name = ?',
    );
    const put = db.prepare(
      `INSERT INTO tm_schedule_status (function_name, schedule, last_ms, next_ms, last_updated_ms)
       VALUES (@function_name, @schedule, @last_ms, @next_ms, @last_updated_ms)
       ON CONFLICT (function_name) DO UPDATE SET schedule = excluded.schedule, last_ms = excluded.last_ms,
         next_ms = excluded.next_ms, last_updated_ms = excluded.last_updated_ms`,
    );
    this.#get = (name) => get.get(name);
    this.#put = (row) => void put.run(row);
  }

  get(functionName: string): ScheduleStatus | undefined {
    const row = this.#get(functionName);
    if (!row) return undefined;
    return { schedule: row.schedule, last: row.last_ms ?? undefined, next: row.next_ms, lastUpdated: row.last_updated_ms };
  }

  put(functionName: string, status: ScheduleStatus): void {
    this.#put({
      function_name: functionName,
      schedule: status.schedule,
      last_ms: status.last ?? null,
      next_ms: status.next,
      last_updated_ms: status.lastUpdated,
    });
  }
}
