/** Test helper: real SQLite files in fresh temp directories, opened as the host opens them, closed after each test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeLog } from '../../host/changefeed/index.js';
import { openHostDatabase } from '../../host/database.js';
import type { SqliteDatabase } from './sqlite.js';

export interface TempDatabase {
  dir: string;
  db: SqliteDatabase;
  changeLog: ChangeLog;
}

export class TempDatabases {
  private readonly opened: TempDatabase[] = [];

  /** A new database file (WAL, synchronous=NORMAL, like the host) with its change log. */
  open(): TempDatabase {
    const dir = mkdtempSync(join(tmpdir(), 'evalp-st-'));
    const db = openHostDatabase(dir);
    const temp = { dir, db, changeLog: new ChangeLog(db) };
    this.opened.push(temp);
    return temp;
  }

  /** Closes and reopens a database file (a process restart). */
  reopen(temp: TempDatabase): TempDatabase {
    if (temp.db.open) temp.db.close();
    const db = openHostDatabase(temp.dir);
    const again = { dir: temp.dir, db, changeLog: new ChangeLog(db) };
    this.opened.push(again);
    return again;
  }

  closeAll(): void {
    for (const temp of this.opened.splice(0)) {
      if (temp.db.open) temp.db.close();
      rmSync(temp.dir, { recursive: true, force: true });
    }
  }
}
