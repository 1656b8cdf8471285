import { afterAll, beforeAll } from 'vitest';
import { feedbackStoreContract } from '../../ports/contracts/feedbackStore.contract.js';
import { CosmosFeedbackStore } from './cosmosFeedbackStore.js';
import { COSMOS_CONTAINERS } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';

let emulator: CosmosEmulator;
beforeAll(async () => {
  emulator = await startCosmosEmulator();
});
afterAll(async () => {
  await emulator.close();
});

feedbackStoreContract(
  'CosmosFeedbackStore',
  async () => new CosmosFeedbackStore((await emulator.newDatabase(['feedback'])).container(COSMOS_CONTAINERS.feedback.id)),
);
