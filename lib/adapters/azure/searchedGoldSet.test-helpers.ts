import { Agent } from 'node:https';
import type { TokenCredential } from '@azure/identity';
import { SearchClient, SearchIndexClient } from '@azure/search-documents';
import { COSMOS_CONTAINERS } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';
import { CosmosTestCaseStore } from './cosmosTestCaseStore.js';
import { startEmbeddingsStub, type EmbeddingsStub } from './embeddingsStub.test-helpers.js';
import { createAzureOpenAIEmbedder } from './searchEmbeddings.js';
import { ensureGoldSetIndex, type GoldSetDocument } from './searchGoldSetIndex.js';
import { SearchIndexedTestCaseStore } from './searchIndexedTestCaseStore.js';
import { startSearchStub, type SearchStub } from './searchStub.test-helpers.js';

export const DIMENSIONS = 64;
/** Entra ID tokens as a managed identity would get them (a real credential cannot be obtained here). */
export const searchCredential: TokenCredential = {
  getToken: async () => ({ token: 'search-token', expiresOnTimestamp: Date.now() + 3_600_000 }),
};

/**
 * Test support: the Cosmos DB emulator, the AI Search stub (https) and the embeddings stub, and a factory of
 * fresh SearchIndexedTestCaseStores (a new database and a new index each).
 */
export interface SearchedGoldSet {
  emulator: CosmosEmulator;
  searchStub: SearchStub;
  embeddings: EmbeddingsStub;
  agent: Agent;
  newStore(): Promise<{ store: SearchIndexedTestCaseStore; name: string; inner: CosmosTestCaseStore }>;
  close(): Promise<void>;
}

export async function startSearchedGoldSet(): Promise<SearchedGoldSet> {
  const [emulator, searchStub, embeddings] = await Promise.all([startCosmosEmulator(), startSearchStub(), startEmbeddingsStub()]);
  const agent = new Agent({ rejectUnauthorized: false, keepAlive: true });
  let indexCount = 0;
  return {
    emulator,
    searchStub,
    embeddings,
    agent,
    async newStore() {
      const name = `gold-set-${++indexCount}`;
      await ensureGoldSetIndex(new SearchIndexClient(searchStub.endpoint, searchCredential, { agent }), name, DIMENSIONS);
      const inner = new CosmosTestCaseStore((await emulator.newDatabase(['testCases'])).container(COSMOS_CONTAINERS.testCases.id));
      const embedder = createAzureOpenAIEmbedder({
        endpoint: embeddings.endpoint,
        deployment: 'embeddings',
        apiVersion: '2024-10-21',
        dimensions: DIMENSIONS,
        azureADTokenProvider: async () => 'openai-token',
        maxRetries: 0,
      });
      const store = new SearchIndexedTestCaseStore(
        inner,
        new SearchClient<GoldSetDocument>(searchStub.endpoint, name, searchCredential, { agent }),
        embedder,
      );
      return { store, name, inner };
    },
    async close() {
      await Promise.all([emulator.close(), searchStub.close(), embeddings.close()]);
      agent.destroy();
    },
  };
}
