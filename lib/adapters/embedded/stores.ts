import type Database from 'better-sqlite3';
import type { ChangeLog } from '../../host/index.js';
import type { Stores } from '../../ports/index.js';
import { createEmbeddedRecordStores } from './createRecordStores.js';
import { EmbeddedRunStatsStore, type EmbeddedRunStatsStoreOptions } from './runStatsStore.js';

/**
 * Every store of the embedded backend on the host's one SQLite connection: test cases, suites, catalogs,
 * targets, clients, runs and scorecards (whose writes go on `changeLog`, container `scorecards`), plus run
 * statistics folded from those scorecards' outcomes and recounted from the same scorecard store.
 */
export function createEmbeddedStores(db: Database.Database, changeLog: ChangeLog, options: EmbeddedRunStatsStoreOptions = {}): Stores {
  const stores = createEmbeddedRecordStores(db, changeLog);
  return { ...stores, runStats: new EmbeddedRunStatsStore(db, stores.scorecards, options) };
}
