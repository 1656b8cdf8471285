import { COSMOS_CONTAINERS } from '../lib/adapters/azure/cosmosContainers.js';
import { ALERT_NOTIFICATIONS_QUEUE } from '../lib/alerts/index.js';
import { STAGE_QUEUE_NAMES } from '../lib/runs/queues.js';
import { RUN_COMPLETED_QUEUE } from '../lib/runs/runCompletedEvents.js';

/**
 * The infrastructure facts the code dictates, in the shape infra/platform.json holds them (the Bicep reads that
 * file with loadJsonContent). `npx tsx infra/syncPlatform.ts` rewrites these parts of platform.json; infra.test.ts
 * fails while they differ.
 */
export interface CosmosContainerFact {
  id: string;
  partitionKeyPaths: string[];
  defaultTtl?: number;
  indexedPaths?: string[];
  compositeIndexes?: Array<Array<{ path: string; order: 'ascending' | 'descending' }>>;
}

/** Every queue the code sends to or triggers on (the stage queues with their `-high` / `-low` priority siblings). */
export function codeQueueNames(): string[] {
  return [...STAGE_QUEUE_NAMES, ALERT_NOTIFICATIONS_QUEUE, RUN_COMPLETED_QUEUE].sort();
}

/** COSMOS_CONTAINERS without the prose, in declaration order. */
export function codeCosmosContainers(): CosmosContainerFact[] {
  return Object.values(COSMOS_CONTAINERS).map((spec) => {
    const fact: CosmosContainerFact = { id: spec.id, partitionKeyPaths: [...spec.partitionKeyPaths] };
    if ('defaultTtl' in spec && spec.defaultTtl !== undefined) fact.defaultTtl = spec.defaultTtl;
    if ('indexedPaths' in spec && spec.indexedPaths) fact.indexedPaths = [...spec.indexedPaths];
    if ('compositeIndexes' in spec && spec.compositeIndexes)
      fact.compositeIndexes = spec.compositeIndexes.map((index) => index.map((p) => ({ ...p })));
    return fact;
  });
}
