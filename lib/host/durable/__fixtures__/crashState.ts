import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The database the crash app's activities write their effects to (the worker's connection, or their own). */
export const crashState: { db: Database.Database | undefined } = { db: undefined };

export function createEffectTables(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS fx_effects (key TEXT PRIMARY KEY, pid INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS fx_executions (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, pid INTEGER NOT NULL);`);
}

/** The worker's connection, or (when the app runs under the host CLI) a second one to EVALP_DATA_DIR's database. */
export function effectsDb(): Database.Database {
  if (!crashState.db) {
    const dir = process.env.EVALP_DATA_DIR;
    if (!dir) throw new Error('crash app: EVALP_DATA_DIR is not set and no worker opened the database');
    const db = new Database(join(dir, 'evalplatform.db'));
    db.pragma('busy_timeout = 5000');
    createEffectTables(db);
    crashState.db = db;
  }
  return crashState.db;
}
