/**
 * `npx tsx infra/syncPlatform.ts`: brings infra/platform.json in step with the code (Cosmos DB containers from
 * lib/adapters/azure/cosmosContainers.ts; a queue entry, with the default settings, for every queue the code uses).
 * Everything else in the file (queue settings, app-setting policy, roles) is edited by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { codeCosmosContainers, codeQueueNames } from './platformFacts.js';

const file = new URL('./platform.json', import.meta.url);
const platform = JSON.parse(readFileSync(file, 'utf8')) as {
  serviceBus: { queueDefaults: Record<string, unknown>; queues: Array<{ name: string }> };
  cosmos: { containers: unknown[] };
};
platform.cosmos.containers = codeCosmosContainers();
const known = new Set(platform.serviceBus.queues.map((q) => q.name));
for (const name of codeQueueNames()) if (!known.has(name)) platform.serviceBus.queues.push({ name, ...platform.serviceBus.queueDefaults });
writeFileSync(file, JSON.stringify(platform, null, 2) + '\n');
console.log(`infra/platform.json: ${platform.cosmos.containers.length} containers, ${platform.serviceBus.queues.length} queues`);
