import { spawn } from 'node:child_process';
import { Agent } from 'node:https';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { BulkOperationType, type Container, type CosmosClient, type Database, type PartitionKey } from '@azure/cosmos';
import { createHttpsServer } from '@zeit/cosmosdb-server';
import { createCosmosClient, ensureCosmosContainers } from './cosmosClient.js';
import { executeBulk, assertBulk } from './cosmosBulk.js';
import { COSMOS_CONTAINERS, type CosmosContainerKey } from './cosmosContainers.js';

/** The Cosmos DB emulator's well-known account key (public; @zeit/cosmosdb-server accepts any key). */
export const EMULATOR_KEY = 'C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==';

export interface CosmosEmulator {
  endpoint: string;
  client: CosmosClient;
  /** a fresh database with the containers (default: all), so every test starts empty */
  newDatabase(keys?: readonly CosmosContainerKey[]): Promise<Database>;
  /**
   * One database per emulator whose containers are emptied on each call: faster than a new database per test
   * (the SDK's metadata caches stay warm), for suites with many small tests.
   */
  emptyDatabase(keys?: readonly CosmosContainerKey[]): Promise<Database>;
  close(): Promise<void>;
}

/**
 * Test support: @zeit/cosmosdb-server (in memory) on 127.0.0.1 with its self-signed certificate, and a client that
 * accepts that certificate through its own agent only (no process-wide NODE_TLS_REJECT_UNAUTHORIZED).
 */
export async function startCosmosEmulator(options: { inProcess?: boolean } = {}): Promise<CosmosEmulator> {
  const server = options.inProcess ? await listenInProcess() : await listenInChild();
  const endpoint = `https://127.0.0.1:${server.port}`;
  const agent = new Agent({ rejectUnauthorized: false, keepAlive: true });
  const client = createCosmosClient({ endpoint, key: EMULATOR_KEY, agent });
  let shared: Database | undefined;
  return {
    endpoint,
    client,
    async newDatabase(keys) {
      const { database } = await client.databases.createIfNotExists({ id: `db-${randomUUID()}` });
      await ensureCosmosContainers(database, keys);
      return database;
    },
    async emptyDatabase(keys = Object.keys(COSMOS_CONTAINERS) as CosmosContainerKey[]) {
      if (!shared) {
        shared = (await client.databases.createIfNotExists({ id: `shared-${randomUUID()}` })).database;
        await ensureCosmosContainers(shared, Object.keys(COSMOS_CONTAINERS) as CosmosContainerKey[]);
      }
      await purgeContainers(shared, keys);
      return shared;
    },
    async close() {
      client.dispose();
      agent.destroy();
      await server.close();
    },
  };
}

interface RunningServer {
  port: number;
  close(): Promise<void>;
}

async function listenInProcess(): Promise<RunningServer> {
  const server = createHttpsServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The emulator in a child process (its CLI), so its query engine (CPU-bound: ~5 ms per point read, ~11 ms per
 * query here) does not share the test's event loop.
 */
async function listenInChild(): Promise<RunningServer> {
  const cli = join(dirname(createRequire(import.meta.url).resolve('@zeit/cosmosdb-server/package.json')), 'lib', 'cli.js');
  const child = spawn(process.execPath, [cli, '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /connections at [^:]+:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`cosmosdb-server exited (${code}) before listening: ${out}`)));
  });
  return {
    port,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill();
      await exited;
    },
  };
}

/** Empties the containers of a database (test support: a fresh store per test on one database). */
export async function purgeContainers(database: Database, keys: readonly CosmosContainerKey[]): Promise<void> {
  for (const key of keys) await purge(database.container(COSMOS_CONTAINERS[key].id), COSMOS_CONTAINERS[key].partitionKeyPaths);
}

/** Deletes every item of a container (reads each item's id and partition key values, then deletes them). */
async function purge(container: Container, paths: readonly string[]): Promise<void> {
  const fields = paths.map((path) => `c["${path.slice(1)}"]`);
  const { resources } = await container.items.query<unknown[]>(`SELECT VALUE [c.id, ${fields.join(', ')}] FROM c`).fetchAll();
  const results = await executeBulk(
    container,
    resources.map(([id, ...values]) => ({
      operationType: BulkOperationType.Delete,
      id: id as string,
      partitionKey: (values.length === 1 ? values[0] : values) as PartitionKey,
    })),
  );
  assertBulk(results, (status) => status === 204 || status === 404);
}
