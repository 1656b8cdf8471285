import { afterAll, beforeAll } from 'vitest';
import type { ZodType } from 'zod';
import {
  type Benchmark,
  type BenchmarkRun,
  BenchmarkRunSchema,
  BenchmarkSchema,
  type Client,
  ClientSchema,
  type Experiment,
  ExperimentSchema,
  type StoredToolCatalog,
  StoredToolCatalogSchema,
  type TargetSystem,
  TargetSystemSchema,
  type TestSuite,
  TestSuiteSchema,
} from '../../domain/index.js';
import {
  entityStoreContract,
  sampleBenchmark,
  sampleBenchmarkRun,
  sampleCatalog,
  sampleClient,
  sampleExperiment,
  sampleSuite,
  sampleTarget,
} from '../../ports/contracts/index.js';
import { COSMOS_CONTAINERS } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';
import { CosmosEntityStore } from './cosmosEntityStore.js';

let emulator: CosmosEmulator;
beforeAll(async () => {
  emulator = await startCosmosEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const store =
  <T extends { id: string }>(kind: string, schema: ZodType<T>) =>
  async () => {
    const database = await emulator.newDatabase(['entities']);
    return new CosmosEntityStore<T>(database.container(COSMOS_CONTAINERS.entities.id), kind, schema);
  };

entityStoreContract<TestSuite>('CosmosEntityStore (suites)', {
  createStore: store('suite', TestSuiteSchema),
  sample: (key) => sampleSuite(key),
  modify: (suite) => ({ ...suite, name: `${suite.name} (renamed)`, test_case_ids: [...suite.test_case_ids, 'case-3'] }),
  invalid: { ...sampleSuite('bad'), kind: 'dynamic' },
  owned: (suite) => ({ ...suite, owner: { kind: 'evaluate-job', id: 'job-1' } }),
});
entityStoreContract<StoredToolCatalog>('CosmosEntityStore (tool catalogs)', {
  createStore: store('tool_catalog', StoredToolCatalogSchema),
  sample: (key) => sampleCatalog(key),
  modify: (catalog) => ({ ...catalog, description: 'changed' }),
  invalid: { ...sampleCatalog('bad'), id: 'bad' },
});
entityStoreContract<TargetSystem>('CosmosEntityStore (targets)', {
  createStore: store('target', TargetSystemSchema),
  sample: (key) => sampleTarget(key),
  modify: (target) => ({ ...target, timeout_ms: 5_000 }),
  invalid: { ...sampleTarget('bad'), settings: { kind: 'carrier-pigeon' } },
  owned: (target) => ({ ...target, owner: { kind: 'evaluate-job', id: 'job-1' } }),
});
entityStoreContract<Client>('CosmosEntityStore (clients)', {
  createStore: store('client', ClientSchema),
  sample: (key) => sampleClient(key),
  modify: (client) => ({ ...client, schedule_cron: '0 0 2 * * *' }),
  invalid: { ...sampleClient('bad'), suite_ids: [] },
});
entityStoreContract<Experiment>('CosmosEntityStore (experiments)', {
  createStore: store('experiment', ExperimentSchema),
  sample: (key) => sampleExperiment(key),
  modify: (experiment) => ({ ...experiment, status: 'running', runs: { a: 'run-a', b: 'run-b' }, pinned_suite_version: 2 }),
  invalid: { ...sampleExperiment('bad'), method: 'vibes' },
});
entityStoreContract<Benchmark>('CosmosEntityStore (benchmarks)', {
  createStore: store('benchmark', BenchmarkSchema),
  sample: (key) => sampleBenchmark(key),
  modify: (benchmark) => ({ ...benchmark, parallelism: 4, tasks: benchmark.tasks.slice(0, 1) }),
  invalid: { ...sampleBenchmark('bad'), parallelism: 0 },
});
entityStoreContract<BenchmarkRun>('CosmosEntityStore (benchmark runs)', {
  createStore: store('benchmark_run', BenchmarkRunSchema),
  sample: (key) => sampleBenchmarkRun(key),
  modify: (run) => ({ ...run, status: 'partially_failed', tasks: run.tasks.map((t) => ({ ...t, status: 'skipped', reason: 'because' })) }),
  invalid: { ...sampleBenchmarkRun('bad'), status: 'vibes' },
});
