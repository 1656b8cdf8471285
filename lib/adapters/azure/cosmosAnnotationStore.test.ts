import { afterAll, beforeAll } from 'vitest';
import { annotationStoreContract } from '../../ports/contracts/annotationStore.contract.js';
import { CosmosAnnotationStore } from './cosmosAnnotationStore.js';
import { COSMOS_CONTAINERS } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';

let emulator: CosmosEmulator;
beforeAll(async () => {
  emulator = await startCosmosEmulator();
});
afterAll(async () => {
  await emulator.close();
});

annotationStoreContract(
  'CosmosAnnotationStore',
  async () => new CosmosAnnotationStore((await emulator.newDatabase(['annotations'])).container(COSMOS_CONTAINERS.annotations.id)),
);
