import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export type HostDatabase = Database.Database;

/** File name of the host's single SQLite database inside the data directory. */
export const HOST_DATABASE_FILE = 'evalplatform.db';

/**
 * Opens (creating the directory and file if needed) the host's one SQLite connection for this process:
 * WAL journal, synchronous=NORMAL (durable across process crashes; an OS crash may lose the last commits),
 * busy_timeout 5000 ms, foreign keys on, a 64 MiB page cache. Engines create their own prefixed tables on it.
 */
export function openHostDatabase(dataDir: string): HostDatabase {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, HOST_DATABASE_FILE));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    // 64 MiB page cache (SQLite's default is 2 MiB): filtered full-text listings over 400k cases ran ~3x faster
    db.pragma('cache_size = -65536');
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
