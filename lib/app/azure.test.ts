import { Agent } from 'node:https';
import type { TokenCredential } from '@azure/identity';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_KEY, startCosmosEmulator, type CosmosEmulator } from '../adapters/azure/cosmosEmulator.test-helpers.js';
import { startEmbeddingsStub, type EmbeddingsStub } from '../adapters/azure/embeddingsStub.test-helpers.js';
import { SearchIndexedTestCaseStore } from '../adapters/azure/searchIndexedTestCaseStore.js';
import { FakeServiceBus } from '../adapters/azure/serviceBusFake.test-helpers.js';
import { startSearchStub, type SearchStub } from '../adapters/azure/searchStub.test-helpers.js';
import { createApiKey } from '../api/apiKeys.js';
import { sampleRun, sampleTestCase } from '../ports/contracts/index.js';
import { QUEUES } from '../runs/queues.js';
import { createAzureServices } from './azure.js';
import { getServices } from './services.js';
import { AppSettingsError } from './settings/checkAppSettings.js';

let emulator: CosmosEmulator;
let search: SearchStub;
let embeddings: EmbeddingsStub;
const agent = new Agent({ rejectUnauthorized: false, keepAlive: true });
/** what a managed identity would hand out (no real credential can be obtained here) */
const tokens: string[] = [];
const credential: TokenCredential = {
  getToken: async (scope) => {
    tokens.push(String(scope));
    return { token: `token-for-${String(scope)}`, expiresOnTimestamp: Date.now() + 3_600_000 };
  },
};

beforeAll(async () => {
  [emulator, search, embeddings] = await Promise.all([startCosmosEmulator(), startSearchStub(), startEmbeddingsStub()]);
});
afterAll(async () => {
  await Promise.all([emulator.close(), search.close(), embeddings.close()]);
  agent.destroy();
});

async function azureEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const database = await emulator.newDatabase();
  return {
    EVALP_BACKEND: 'azure',
    COSMOS_DATABASE_NAME: database.id,
    CosmosConnection__accountEndpoint: emulator.endpoint,
    CosmosConnection__accountKey: EMULATOR_KEY, // the emulator takes keys only: the documented fallback
    ServiceBusConnection__fullyQualifiedNamespace: 'evalp-test.servicebus.windows.net',
    AzureWebJobsStorage: 'UseDevelopmentStorage=true',
    EVALP_TASK_HUB: 'EvalPlatformHub',
    ...extra,
  };
}

describe('createAzureServices', () => {
  it('fails fast, naming every missing or malformed setting', async () => {
    const error = await createAzureServices({ env: { EVALP_BACKEND: 'azure', EVALP_SCORECARD_TTL_SECONDS: 'a week' }, credential }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppSettingsError);
    expect((error as AppSettingsError).problems.map((p) => p.setting)).toEqual([
      'EVALP_SCORECARD_TTL_SECONDS',
      'COSMOS_DATABASE_NAME',
      'CosmosConnection__accountEndpoint',
      'ServiceBusConnection__fullyQualifiedNamespace',
      'AzureWebJobsStorage',
      'EVALP_TASK_HUB',
    ]);
  });

  it('composes every port: Cosmos DB stores and API keys, Service Bus queue, AI Search gold set with Entra ID embeddings', async () => {
    const bus = new FakeServiceBus();
    const env = await azureEnv({
      EVALP_SEARCH_ENDPOINT: search.endpoint,
      EVALP_SEARCH_INDEX: 'composed-gold-set',
      EVALP_EMBEDDINGS_DIMENSIONS: '16',
      AZURE_OPENAI_ENDPOINT: embeddings.endpoint,
      AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT: 'emb',
      AZURE_OPENAI_API_VERSION: '2024-10-21',
      EVALP_PUBLIC_URL: 'https://evalp.example.com',
      EVALP_SCORECARD_TTL_SECONDS: '86400',
    });
    const services = await createAzureServices({ env, credential, cosmosAgent: agent, searchAgent: agent, serviceBusClient: bus });
    expect(services.publicUrl).toBe('https://evalp.example.com');
    expect(services.workerId).toMatch(/^azure-/);
    expect(search.indexes.has('composed-gold-set')).toBe(true);

    expect(services.stores.testCases).toBeInstanceOf(SearchIndexedTestCaseStore);
    await services.stores.testCases.createTestCase(sampleTestCase('c1', { nl_query: 'Where is my refund?', tags: ['refunds'] }));
    expect((await services.stores.testCases.listTestCases({ q: 'refund' })).items.map((c) => c.id)).toEqual(['c1']);
    expect(tokens).toEqual(expect.arrayContaining(['https://search.azure.com/.default', 'https://cognitiveservices.azure.com/.default']));

    await services.stores.runs.createRun(sampleRun('r1'));
    expect((await services.stores.runs.getRun('r1'))?.status).toBe('pending');

    const { key, record } = await createApiKey(services.apiKeys, { name: 'ci', roles: ['runner'] }, services.clock);
    expect(await services.apiKeys.getApiKey(record.id)).toEqual(record);
    expect(key).toMatch(/^evalp_/);

    expect(await services.queue.sendMessages(QUEUES.evaluate, [{ messageId: 'r1:c1:evaluate:1', body: { run_id: 'r1' } }])).toEqual({
      accepted: 1,
      duplicates: 0,
    });
    expect(bus.calls.map((c) => [c.op, c.queue, c.count])).toEqual([['sendBatch', QUEUES.evaluate, 1]]);

    const judge = services.judgeFor(sampleRun('r1'));
    expect(judge.constructor.name).toBe('LocalReferenceJudge');
  });
});

describe('getServices in Azure', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('composes once from the app settings when EVALP_BACKEND=azure, and retries after a failed start', async () => {
    process.env.EVALP_BACKEND = 'azure';
    await expect(getServices()).rejects.toBeInstanceOf(AppSettingsError);
    Object.assign(
      process.env,
      await azureEnv({
        ServiceBusConnection__fullyQualifiedNamespace: '',
        ServiceBusConnection: 'Endpoint=sb://127.0.0.1/;SharedAccessKeyName=k;SharedAccessKey=s',
      }),
    );
    const first = getServices();
    expect(getServices()).toBe(first);
    const services = await first;
    expect(services.workerId).toMatch(/^azure-/);
    expect(await getServices()).toBe(services);
  });
});
