import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleTestCase, testCaseStoreContract } from '../../ports/contracts/index.js';
import { COSMOS_CONTAINERS } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';
import { toCosmosId } from './cosmosIds.js';
import { CosmosTestCaseStore } from './cosmosTestCaseStore.js';

let emulator: CosmosEmulator;
beforeAll(async () => {
  emulator = await startCosmosEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const newStore = async () => new CosmosTestCaseStore((await emulator.newDatabase(['testCases'])).container(COSMOS_CONTAINERS.testCases.id));

testCaseStoreContract('CosmosTestCaseStore', newStore);

describe('CosmosTestCaseStore documents', () => {
  it.each([
    ['plain', 'case-1', 'case-1'],
    ['characters Cosmos ids refuse', 'a/b\\c?d#e%f', 'a%2Fb%5Cc%3Fd%23e%25f'],
    ['an escape-looking id stays distinct', 'a%2Fb', 'a%252Fb'],
  ])('keeps any case id (%s) and stores it under a valid Cosmos id', async (_label, caseId, cosmosId) => {
    expect(toCosmosId(caseId)).toBe(cosmosId);
    const store = await newStore();
    await store.upsertTestCases([sampleTestCase(caseId, { tags: ['t'] })]);
    expect(await store.getTestCase(caseId)).toEqual({ ...sampleTestCase(caseId, { tags: ['t'] }), _etag: expect.any(String) });
    expect((await store.container.item(cosmosId, cosmosId).read()).resource).toMatchObject({ case_id: caseId, tags: ['t'] });
    await store.deleteTestCase(caseId);
    expect(await store.getTestCase(caseId)).toBeUndefined();
  });

  it('hashes ids longer than Cosmos allows, injectively', () => {
    const long = 'x'.repeat(300);
    expect(toCosmosId(long)).toMatch(/^%H[0-9a-f]{64}$/);
    expect(toCosmosId(long)).not.toBe(toCosmosId(`${long}y`));
  });
});
