import { afterEach } from 'vitest';
import { runStatsDeletionContract } from '../../ports/contracts/index.js';
import { createEmbeddedStores } from './stores.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

runStatsDeletionContract('EmbeddedRunStatsStore', () => {
  const { db, changeLog } = temps.open();
  return createEmbeddedStores(db, changeLog);
});
