import type { Agent } from 'node:http';
import {
  CosmosClient,
  PartitionKeyDefinitionVersion,
  PartitionKeyKind,
  type ContainerDefinition,
  type Database,
  type IndexingPolicy,
} from '@azure/cosmos';
import type { TokenCredential } from '@azure/identity';
import { COSMOS_CONTAINERS, type CosmosContainerKey, type CosmosContainerSpec } from './cosmosContainers.js';

export interface CosmosConnectionOptions {
  /** `CosmosConnection__accountEndpoint`, e.g. https://<account>.documents.azure.com:443/ */
  endpoint: string;
  /** Microsoft Entra ID (DefaultAzureCredential in Azure); used unless `key` is given */
  credential?: TokenCredential;
  /** `CosmosConnection__accountKey`: the explicit fallback (and the emulator's well-known key) */
  key?: string;
  /** an HTTP agent (tests: the emulator's self-signed certificate) */
  agent?: Agent;
}

/** A CosmosClient authenticated with Entra ID, or with an account key when one is given (the fallback). */
export function createCosmosClient(options: CosmosConnectionOptions): CosmosClient {
  if (!options.key && !options.credential) throw new Error('createCosmosClient needs a credential (Entra ID) or an account key');
  return new CosmosClient({
    endpoint: options.endpoint,
    ...(options.key ? { key: options.key } : { aadCredentials: options.credential! }),
    ...(options.agent ? { agent: options.agent } : {}),
    userAgentSuffix: 'evalplatform',
  });
}

/** The container definition (what infra/ declares and `ensureCosmosContainers` creates) of a spec. */
export function containerDefinition(spec: CosmosContainerSpec): ContainerDefinition {
  const hierarchical = spec.partitionKeyPaths.length > 1;
  const indexingPolicy: IndexingPolicy = { indexingMode: 'consistent', automatic: true };
  if (spec.indexedPaths) {
    indexingPolicy.includedPaths = spec.indexedPaths.map((path) => ({ path }));
    indexingPolicy.excludedPaths = [{ path: '/*' }];
  }
  if (spec.compositeIndexes) indexingPolicy.compositeIndexes = spec.compositeIndexes.map((index) => index.map((p) => ({ ...p })));
  return {
    id: spec.id,
    partitionKey: hierarchical
      ? { paths: [...spec.partitionKeyPaths], kind: PartitionKeyKind.MultiHash, version: PartitionKeyDefinitionVersion.V2 }
      : { paths: [...spec.partitionKeyPaths], version: PartitionKeyDefinitionVersion.V2 },
    indexingPolicy,
    ...(spec.defaultTtl !== undefined ? { defaultTtl: spec.defaultTtl } : {}),
  };
}

/**
 * Creates the containers (default: all of COSMOS_CONTAINERS) if they do not exist. For the emulator, tests and
 * dev accounts with key auth: Entra ID data-plane roles cannot create containers, so in Azure infra/ creates them.
 */
export async function ensureCosmosContainers(
  database: Database,
  keys: readonly CosmosContainerKey[] = Object.keys(COSMOS_CONTAINERS) as CosmosContainerKey[],
): Promise<void> {
  for (const key of keys) await database.containers.createIfNotExists(containerDefinition(COSMOS_CONTAINERS[key]));
}
