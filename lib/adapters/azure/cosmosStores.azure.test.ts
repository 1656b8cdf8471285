import { randomUUID } from 'node:crypto';
import { DefaultAzureCredential } from '@azure/identity';
import type { Database } from '@azure/cosmos';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ClientSchema, TestSuiteSchema, type Client, type TestSuite } from '../../domain/index.js';
import { alertStoreContract } from '../../ports/contracts/alertStore.contract.js';
import { auditStoreContract } from '../../ports/contracts/auditStore.contract.js';
import { runStatsDeletionContract } from '../../ports/contracts/runStatsDeletion.contract.js';
import {
  entityStoreContract,
  runStoreContract,
  sampleClient,
  sampleSuite,
  scorecardStoreContract,
  testCaseStoreContract,
} from '../../ports/contracts/index.js';
import { createCosmosClient, ensureCosmosContainers } from './cosmosClient.js';
import { COSMOS_CONTAINERS, type CosmosContainerKey } from './cosmosContainers.js';
import { purgeContainers } from './cosmosEmulator.test-helpers.js';
import { CosmosEntityStore } from './cosmosEntityStore.js';
import { createCosmosStores } from './createCosmosStores.js';

/**
 * The shared contract suites against a real Azure Cosmos DB account, when EVALP_TEST_COSMOS_ENDPOINT is set
 * (with EVALP_TEST_COSMOS_KEY, or Entra ID through DefaultAzureCredential with a role that may create databases).
 * Creates a throwaway database `evalp-test-<uuid>`, empties its containers before each test, deletes it at the end.
 */
const endpoint = process.env.EVALP_TEST_COSMOS_ENDPOINT;
if (!endpoint)
  console.info(
    'cosmosStores.azure.test.ts: skipped (set EVALP_TEST_COSMOS_ENDPOINT, and EVALP_TEST_COSMOS_KEY or an Entra ID login, to run the store contracts against real Azure Cosmos DB)',
  );

describe.skipIf(!endpoint)('Cosmos DB stores against real Azure', () => {
  let database: Database;
  beforeAll(async () => {
    const key = process.env.EVALP_TEST_COSMOS_KEY;
    const client = createCosmosClient({ endpoint: endpoint!, ...(key ? { key } : { credential: new DefaultAzureCredential() }) });
    database = (await client.databases.createIfNotExists({ id: `evalp-test-${randomUUID()}` })).database;
    await ensureCosmosContainers(database);
  }, 120_000);
  afterAll(async () => {
    await database?.delete();
  }, 120_000);

  const stores = async (keys: CosmosContainerKey[]) => {
    await purgeContainers(database, keys);
    return createCosmosStores(database);
  };
  it('has a database', () => undefined);
  testCaseStoreContract('Azure CosmosTestCaseStore', async () => (await stores(['testCases'])).testCases);
  runStoreContract('Azure CosmosRunStore', async () => (await stores(['runs', 'runShards'])).runs);
  scorecardStoreContract('Azure CosmosScorecardStore', async () => (await stores(['scorecards'])).scorecards);
  alertStoreContract('Azure CosmosAlertStore', async () => (await stores(['alerts'])).alerts);
  auditStoreContract('Azure CosmosAuditStore', async () => (await stores(['audit'])).audit);
  runStatsDeletionContract('Azure CosmosRunStatsStore', async () => stores(['scorecards', 'runStats']));
  entityStoreContract<TestSuite>('Azure CosmosEntityStore (suites)', {
    createStore: async () => {
      await purgeContainers(database, ['entities']);
      return new CosmosEntityStore<TestSuite>(database.container(COSMOS_CONTAINERS.entities.id), 'suite', TestSuiteSchema);
    },
    sample: (key) => sampleSuite(key),
    modify: (suite) => ({ ...suite, name: `${suite.name} (renamed)` }),
    invalid: { ...sampleSuite('bad'), kind: 'dynamic' },
  });
  entityStoreContract<Client>('Azure CosmosEntityStore (clients)', {
    createStore: async () => {
      await purgeContainers(database, ['entities']);
      return new CosmosEntityStore<Client>(database.container(COSMOS_CONTAINERS.entities.id), 'client', ClientSchema);
    },
    sample: (key) => sampleClient(key),
    modify: (client) => ({ ...client, schedule_cron: '0 0 2 * * *' }),
    invalid: { ...sampleClient('bad'), suite_ids: [] },
  });
});
