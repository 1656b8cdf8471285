import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertStoreContract } from '../../ports/contracts/alertStore.contract.js';
import { auditStoreContract } from '../../ports/contracts/auditStore.contract.js';
import { type ApiKeyRecord, ConflictError } from '../../ports/index.js';
import { CosmosAlertStore } from './cosmosAlertStore.js';
import { CosmosApiKeyStore } from './cosmosApiKeyStore.js';
import { CosmosAuditStore } from './cosmosAuditStore.js';
import { COSMOS_CONTAINERS } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';

let emulator: CosmosEmulator;
beforeAll(async () => {
  emulator = await startCosmosEmulator();
});
afterAll(async () => {
  await emulator.close();
});

alertStoreContract(
  'CosmosAlertStore',
  async () => new CosmosAlertStore((await emulator.newDatabase(['alerts'])).container(COSMOS_CONTAINERS.alerts.id)),
);
auditStoreContract(
  'CosmosAuditStore',
  async () => new CosmosAuditStore((await emulator.newDatabase(['audit'])).container(COSMOS_CONTAINERS.audit.id)),
);

const key = (id: string, created_at: string, revoked_at: string | null = null): ApiKeyRecord => ({
  id,
  name: `key ${id}`,
  roles: ['reader'],
  secret_hash: 'ab'.repeat(32),
  created_at,
  revoked_at,
  last_used_at: null,
});

describe('CosmosApiKeyStore', () => {
  it('creates once, gets, lists by creation time then id, revokes idempotently and counts the live keys', async () => {
    const store = new CosmosApiKeyStore((await emulator.newDatabase(['apiKeys'])).container(COSMOS_CONTAINERS.apiKeys.id));
    await store.createApiKey(key('k2', '2026-03-01T00:00:02.000Z'));
    await store.createApiKey(key('k1', '2026-03-01T00:00:02.000Z'));
    await store.createApiKey(key('k0/x', '2026-03-01T00:00:01.000Z'));
    await expect(store.createApiKey(key('k1', '2026-03-02T00:00:00.000Z'))).rejects.toBeInstanceOf(ConflictError);
    expect(await store.getApiKey('k0/x')).toEqual(key('k0/x', '2026-03-01T00:00:01.000Z'));
    expect(await store.getApiKey('missing')).toBeUndefined();
    expect((await store.listApiKeys()).map((k) => k.id)).toEqual(['k0/x', 'k1', 'k2']);
    expect(await store.countApiKeys()).toBe(3);
    await store.revokeApiKey('k1', '2026-03-03T00:00:00.000Z');
    await store.revokeApiKey('k1', '2026-03-04T00:00:00.000Z');
    await store.revokeApiKey('missing', '2026-03-04T00:00:00.000Z');
    expect(await store.getApiKey('k1')).toEqual(key('k1', '2026-03-01T00:00:02.000Z', '2026-03-03T00:00:00.000Z'));
    expect(await store.countApiKeys()).toBe(2);
  });
});
