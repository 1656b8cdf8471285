// Cosmos DB: every store of the Azure backend
export { COSMOS_CONTAINERS, SCORECARD_SHARDS, shardOf, type CosmosContainerKey, type CosmosContainerSpec } from './cosmosContainers.js';
export { createCosmosClient, containerDefinition, ensureCosmosContainers, type CosmosConnectionOptions } from './cosmosClient.js';
export { createCosmosStores, type CosmosStoresOptions } from './createCosmosStores.js';
export { CosmosTestCaseStore } from './cosmosTestCaseStore.js';
export { CosmosEntityStore } from './cosmosEntityStore.js';
export { CosmosRunStore } from './cosmosRunStore.js';
export { CosmosScorecardStore, type CosmosScorecardStoreOptions } from './cosmosScorecardStore.js';
export { CosmosRunStatsStore, type CosmosRunStatsStoreOptions } from './cosmosRunStatsStore.js';
export { CosmosApiKeyStore } from './cosmosApiKeyStore.js';
export { CosmosAlertStore } from './cosmosAlertStore.js';
export { CosmosAuditStore } from './cosmosAuditStore.js';
export { toCosmosId } from './cosmosIds.js';
export { executeBulk, queryByIds, BULK_THRESHOLD, CosmosBulkError } from './cosmosBulk.js';
// AI Search: the gold-set index and its embeddings
export { goldSetIndexDefinition, ensureGoldSetIndex, searchKey, type GoldSetDocument } from './searchGoldSetIndex.js';
export { SearchIndexedTestCaseStore } from './searchIndexedTestCaseStore.js';
export { OpenAIEmbedder, createAzureOpenAIEmbedder, type AzureOpenAIEmbedderSettings } from './searchEmbeddings.js';
// secrets
export { KeyVaultSecretResolver, KEY_VAULT_SCOPE } from './keyVaultSecretResolver.js';
// Service Bus and Azure OpenAI Entra ID tokens (engineer H9's adapters)
export { ServiceBusQueuePort } from './serviceBusQueuePort.js';
export { createServiceBusClient, SERVICE_BUS_SETTINGS } from './serviceBusClient.js';
export { azureOpenAITokenProvider, COGNITIVE_SERVICES_SCOPE } from './openaiAuth.js';
export type { SbClient } from './serviceBusSurface.js';
export { ServiceBusDeadLetters } from './serviceBusDeadLetters.js';
export { ServiceBusRunQueues, type ServiceBusRunQueuesOptions } from './serviceBusRunQueues.js';
export { BlobAnalyticsSink, type BlobAnalyticsSinkOptions } from './blobAnalyticsSink.js';
export { createAcsMailer, type AcsMailSettings } from './acsMailer.js';
