import { randomBytes } from 'node:crypto';
import { mailerFromEnv } from './mailerFromEnv.js';
import type { Agent } from 'node:http';
import { hostname } from 'node:os';
import { AzureKeyCredential, SearchClient, SearchIndexClient } from '@azure/search-documents';
import { DefaultAzureCredential, type TokenCredential } from '@azure/identity';
import {
  azureOpenAITokenProvider,
  BlobAnalyticsSink,
  COSMOS_CONTAINERS,
  CosmosApiKeyStore,
  type CosmosTestCaseStore,
  createAzureOpenAIEmbedder,
  createCosmosClient,
  createCosmosStores,
  createServiceBusClient,
  ensureGoldSetIndex,
  type GoldSetDocument,
  KeyVaultSecretResolver,
  type SbClient,
  SearchIndexedTestCaseStore,
  ServiceBusDeadLetters,
  ServiceBusRunQueues,
  ServiceBusQueuePort,
} from '../adapters/azure/index.js';
import { apiSecuritySettingsFromEnv, configureApiSecurity } from '../api/index.js';
import { type Services, type Stores, systemClock } from '../ports/index.js';
import { createOutboundGuard, outboundPolicyFromEnv } from '../outbound/index.js';
import { TargetRegistry } from '../targets/index.js';
import { startTelemetry } from '../telemetry/index.js';
import { runServices } from './perRunServices.js';
import { platformVersion } from './packageRoot.js';
import { breakerSettingsFromEnv } from './breakerSettings.js';
import { checkAppSettings, type AppSettings, type SettingsSource } from './settings/checkAppSettings.js';

const withMailer = (mailer: ReturnType<typeof mailerFromEnv>) => (mailer ? { mailer } : {});

export interface AzureServicesOptions {
  /** app settings (default process.env) */
  env?: SettingsSource;
  /** Entra ID for Cosmos DB, AI Search, Key Vault, Azure OpenAI and Service Bus (default DefaultAzureCredential) */
  credential?: TokenCredential;
  /** base for relative paths in target and run settings (default: the current directory) */
  baseDir?: string;
  /** HTTP agents (tests: the emulator's and the stubs' self-signed certificates) */
  cosmosAgent?: Agent;
  searchAgent?: Agent;
  /** a Service Bus client (tests); default from the ServiceBusConnection settings */
  serviceBusClient?: SbClient;
  /** create or update the AI Search index at start (default true; needs the Search Service Contributor role) */
  ensureSearchIndex?: boolean;
}

export interface AzureServices extends Services {
  settings: AppSettings;
}

/**
 * The Azure backend (EVALP_BACKEND=azure): the startup check first (every missing or malformed setting named at
 * once, AppSettingsError), then stores on Cosmos DB (the test cases mirrored into the AI Search gold-set index
 * when EVALP_SEARCH_ENDPOINT is set), API keys on Cosmos DB, the queue on Service Bus, target secrets from app
 * settings and Key Vault, and Azure OpenAI (judge, openai targets, embeddings) with Entra ID tokens. Every client
 * authenticates with Entra ID; keys are used only when their fallback settings are set. Nothing is created in
 * Azure except the search index definition (idempotent); the containers come from infra/.
 */
export async function createAzureServices(options: AzureServicesOptions = {}): Promise<AzureServices> {
  const env = options.env ?? process.env;
  const settings = checkAppSettings(env, { backend: 'azure' });
  const credential = options.credential ?? defaultCredential(settings);
  const baseDir = options.baseDir ?? process.cwd();
  // Application Insights when APPLICATIONINSIGHTS_CONNECTION_STRING is set (once per process; off otherwise)
  await startTelemetry(env);

  const cosmos = createCosmosClient({
    endpoint: settings.CosmosConnection__accountEndpoint!,
    ...(settings.CosmosConnection__accountKey ? { key: settings.CosmosConnection__accountKey } : { credential }),
    ...(options.cosmosAgent ? { agent: options.cosmosAgent } : {}),
  });
  const database = cosmos.database(settings.COSMOS_DATABASE_NAME!);
  const stores: Stores = createCosmosStores(
    database,
    settings.EVALP_SCORECARD_TTL_SECONDS ? { scorecardTtlSeconds: settings.EVALP_SCORECARD_TTL_SECONDS } : {},
  );
  const azureADTokenProvider = azureOpenAITokenProvider({ credential });
  if (settings.EVALP_SEARCH_ENDPOINT)
    stores.testCases = await searchIndexed(stores.testCases as CosmosTestCaseStore, settings, credential, azureADTokenProvider, options);

  const secrets = new KeyVaultSecretResolver({
    env,
    credential,
    ...(settings.EVALP_KEY_VAULT_URL ? { vaultUrl: settings.EVALP_KEY_VAULT_URL } : {}),
  });
  // private, loopback and link-local destinations only when EVALP_OUTBOUND_ALLOW says so; metadata never
  const outbound = createOutboundGuard(outboundPolicyFromEnv(env, { backend: 'azure' }));
  const targets = new TargetRegistry({
    secrets,
    baseDir,
    azureADTokenProvider,
    fetch: outbound.fetch,
    breaker: breakerSettingsFromEnv(env),
  });
  const serviceBus = options.serviceBusClient ?? createServiceBusClient(env, credential);
  const services: AzureServices = {
    settings,
    stores,
    apiKeys: new CosmosApiKeyStore(database.container(COSMOS_CONTAINERS.apiKeys.id)),
    queue: new ServiceBusQueuePort(serviceBus),
    deadLetters: new ServiceBusDeadLetters(serviceBus),
    // the run view's health and the watchdog (peeked queues); poison is still logged, not dead-lettered, in Azure
    runQueues: new ServiceBusRunQueues(serviceBus),
    clock: systemClock,
    ...runServices({ targets, baseDir, env, azureADTokenProvider, fetch: outbound.fetch }),
    baseDir,
    workerId: `azure-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    ...(settings.EVALP_PUBLIC_URL ? { publicUrl: settings.EVALP_PUBLIC_URL } : {}),
    version: platformVersion(),
    outbound,
    // completed runs as Parquet analytics tables in Blob Storage / OneLake (Entra ID: Storage Blob Data Contributor)
    ...(settings.EVALP_ANALYTICS_BLOB_ENDPOINT && settings.EVALP_ANALYTICS_EXPORT !== 'off'
      ? {
          analyticsSink: new BlobAnalyticsSink({
            endpoint: settings.EVALP_ANALYTICS_BLOB_ENDPOINT,
            container: settings.EVALP_ANALYTICS_BLOB_CONTAINER ?? 'analytics',
            ...(settings.EVALP_ANALYTICS_BLOB_PREFIX ? { prefix: settings.EVALP_ANALYTICS_BLOB_PREFIX } : {}),
            credential,
          }),
        }
      : {}),
    // e-mail of alerts and finished runs: Azure Communication Services Email (EVALP_EMAIL_FROM + EVALP_ACS_EMAIL_ENDPOINT)
    ...withMailer(mailerFromEnv(env)),
  };
  configureApiSecurity(services, apiSecuritySettingsFromEnv(env));
  return services;
}

/** DefaultAzureCredential, with the user-assigned identity's client id when one is configured. */
function defaultCredential(settings: AppSettings): TokenCredential {
  const clientId = settings.AZURE_CLIENT_ID ?? settings.CosmosConnection__clientId;
  return new DefaultAzureCredential(clientId ? { managedIdentityClientId: clientId } : {});
}

async function searchIndexed(
  inner: CosmosTestCaseStore,
  settings: AppSettings,
  credential: TokenCredential,
  azureADTokenProvider: () => Promise<string>,
  options: AzureServicesOptions,
): Promise<SearchIndexedTestCaseStore> {
  const endpoint = settings.EVALP_SEARCH_ENDPOINT!;
  const indexName = settings.EVALP_SEARCH_INDEX ?? 'gold-set';
  const dimensions = settings.EVALP_EMBEDDINGS_DIMENSIONS ?? 1536;
  const searchCredential = settings.EVALP_SEARCH_API_KEY ? new AzureKeyCredential(settings.EVALP_SEARCH_API_KEY) : credential;
  const clientOptions = options.searchAgent ? { agent: options.searchAgent } : {};
  if (options.ensureSearchIndex !== false) {
    try {
      await ensureGoldSetIndex(new SearchIndexClient(endpoint, searchCredential, clientOptions), indexName, dimensions);
    } catch (error) {
      throw new Error(
        `could not create or update the AI Search index "${indexName}" at ${endpoint} (the app's identity needs the Search Service Contributor role): ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  const embedder = createAzureOpenAIEmbedder({
    endpoint: settings.AZURE_OPENAI_ENDPOINT!,
    deployment: settings.AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT!,
    apiVersion: settings.AZURE_OPENAI_API_VERSION!,
    dimensions,
    ...(settings.AZURE_OPENAI_API_KEY ? { apiKey: settings.AZURE_OPENAI_API_KEY } : { azureADTokenProvider }),
  });
  return new SearchIndexedTestCaseStore(
    inner,
    new SearchClient<GoldSetDocument>(endpoint, indexName, searchCredential, clientOptions),
    embedder,
  );
}
