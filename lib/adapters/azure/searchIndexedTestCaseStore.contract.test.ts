import { afterAll, beforeAll } from 'vitest';
import { testCaseStoreContract } from '../../ports/contracts/index.js';
import { startSearchedGoldSet, type SearchedGoldSet } from './searchedGoldSet.test-helpers.js';

/** The shared TestCaseStore contract through the AI Search decorator (q and near-duplicates answered by the index stub). */
let env: SearchedGoldSet;
beforeAll(async () => {
  env = await startSearchedGoldSet();
});
afterAll(async () => {
  await env.close();
});

testCaseStoreContract('SearchIndexedTestCaseStore (Cosmos DB + AI Search)', async () => (await env.newStore()).store);
