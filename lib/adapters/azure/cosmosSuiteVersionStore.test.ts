import { afterAll, beforeAll } from 'vitest';
import { suiteVersionStoreContract } from '../../ports/contracts/suiteVersionStore.contract.js';
import { COSMOS_CONTAINERS } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';
import { CosmosSuiteVersionStore } from './cosmosSuiteVersionStore.js';

let emulator: CosmosEmulator;
beforeAll(async () => {
  emulator = await startCosmosEmulator();
});
afterAll(async () => {
  await emulator.close();
});

suiteVersionStoreContract(
  'CosmosSuiteVersionStore',
  async () => new CosmosSuiteVersionStore((await emulator.newDatabase(['suiteVersions'])).container(COSMOS_CONTAINERS.suiteVersions.id)),
);
