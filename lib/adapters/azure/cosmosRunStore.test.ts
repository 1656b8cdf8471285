import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStoreContract, sampleRun } from '../../ports/contracts/index.js';
import { COSMOS_CONTAINERS } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';
import { CosmosRunStore } from './cosmosRunStore.js';

let emulator: CosmosEmulator;
beforeAll(async () => {
  emulator = await startCosmosEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const newStore = async () => {
  const database = await emulator.newDatabase(['runs', 'runShards']);
  return new CosmosRunStore(database.container(COSMOS_CONTAINERS.runs.id), database.container(COSMOS_CONTAINERS.runShards.id));
};

runStoreContract('CosmosRunStore', newStore);

describe('CosmosRunStore', () => {
  it('refuses an invalid run and a bound that is not a date-time', async () => {
    const store = await newStore();
    await expect(store.createRun({ ...sampleRun('r'), status: 'sleeping' as never })).rejects.toThrow();
    expect(await store.getRun('r')).toBeUndefined();
    await expect(store.listRuns({ created_after: 'yesterday' })).rejects.toBeInstanceOf(RangeError);
  });

  it('keeps ten concurrent transitions from one status to exactly one', async () => {
    const store = await newStore();
    await store.createRun(sampleRun('r', { status: 'running' }));
    const notes = Array.from({ length: 10 }, (_, i) => `n${i}`);
    const results = await Promise.all(
      notes.map((note) => store.updateRun('r', { status: 'completed', notes: [note] }, { from: ['running'] })),
    );
    const applied = results.filter((r) => r !== undefined);
    expect(applied).toHaveLength(1);
    expect(await store.getRun('r')).toEqual(applied[0]);
  });
});
