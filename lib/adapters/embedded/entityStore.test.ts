import { afterEach, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { Benchmark, BenchmarkRun, Client, Experiment, StoredToolCatalog, TargetSystem, TestSuite } from '../../domain/index.js';
import { entityStoreContract } from '../../ports/contracts/entityStore.contract.js';
import {
  sampleBenchmark,
  sampleBenchmarkRun,
  sampleCatalog,
  sampleClient,
  sampleExperiment,
  sampleSuite,
  sampleTarget,
} from '../../ports/contracts/fixtures.js';
import { createEmbeddedRecordStores as createEmbeddedStores } from './createRecordStores.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());
const stores = () => {
  const temp = temps.open();
  return createEmbeddedStores(temp.db, temp.changeLog);
};

entityStoreContract<TestSuite>('embedded suites', {
  createStore: () => stores().suites,
  sample: (id) => sampleSuite(id),
  modify: (suite) => ({ ...suite, name: `${suite.name} (renamed)`, test_case_ids: [...suite.test_case_ids, 'case-3'] }),
  invalid: { ...sampleSuite('bad'), kind: 'dynamic' },
  owned: (suite) => ({ ...suite, owner: { kind: 'evaluate-job', id: 'job-1' } }),
});

entityStoreContract<StoredToolCatalog>('embedded tool catalogs', {
  createStore: () => stores().catalogs,
  sample: (key) => sampleCatalog(key),
  modify: (catalog) => ({ ...catalog, description: 'changed' }),
  invalid: { ...sampleCatalog('bad'), id: 'bad' },
});

entityStoreContract<TargetSystem>('embedded targets', {
  createStore: () => stores().targets,
  sample: (id) => sampleTarget(id),
  modify: (target) => ({ ...target, timeout_ms: 5_000 }),
  invalid: { ...sampleTarget('bad'), settings: { kind: 'carrier-pigeon' } },
  owned: (target) => ({ ...target, owner: { kind: 'evaluate-job', id: 'job-1' } }),
});

entityStoreContract<Client>('embedded clients', {
  createStore: () => stores().clients,
  sample: (id) => sampleClient(id),
  modify: (client) => ({ ...client, schedule_cron: '0 0 2 * * *' }),
  invalid: { ...sampleClient('bad'), suite_ids: [] },
});

entityStoreContract<Experiment>('embedded experiments', {
  createStore: () => stores().experiments,
  sample: (id) => sampleExperiment(id),
  modify: (experiment) => ({ ...experiment, status: 'running', runs: { a: 'run-a', b: 'run-b' }, pinned_suite_version: 2 }),
  invalid: { ...sampleExperiment('bad'), method: 'vibes' },
});

entityStoreContract<Benchmark>('embedded benchmarks', {
  createStore: () => stores().benchmarks,
  sample: (id) => sampleBenchmark(id),
  modify: (benchmark) => ({ ...benchmark, parallelism: 4, tasks: benchmark.tasks.slice(0, 1) }),
  invalid: { ...sampleBenchmark('bad'), parallelism: 0 },
});

entityStoreContract<BenchmarkRun>('embedded benchmark runs', {
  createStore: () => stores().benchmarkRuns,
  sample: (id) => sampleBenchmarkRun(id),
  modify: (run) => ({ ...run, status: 'partially_failed', tasks: run.tasks.map((t) => ({ ...t, status: 'skipped', reason: 'because' })) }),
  invalid: { ...sampleBenchmarkRun('bad'), status: 'vibes' },
});

describe('EmbeddedEntityStore (embedded specifics)', () => {
  it('throws the ZodError of the kind schema, naming the field', async () => {
    const { suites } = stores();
    const error = await suites.create({ ...sampleSuite('s'), kind: 'dynamic' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZodError);
    expect((error as ZodError).issues.map((issue) => issue.path)).toEqual([['filter']]);
  });

  it('stores what the schema parses (defaults applied, unknown keys refused)', async () => {
    const { targets } = stores();
    const { client_type: _c, timeout_ms: _t, max_retries: _m, rate_limit: _r, ...minimal } = sampleTarget('t');
    expect(await targets.create(minimal as TargetSystem)).toEqual({ ...sampleTarget('t'), _etag: expect.any(String) });
    await expect(targets.create({ ...sampleTarget('u'), extra: 1 } as TargetSystem)).rejects.toBeInstanceOf(ZodError);
  });

  it.each([
    ['id without the version', { ...sampleCatalog('weather', '2'), id: 'weather' }],
    ['id of another version', { ...sampleCatalog('weather', '2'), id: 'weather@1' }],
  ])('refuses a tool catalog whose %s', async (_label, catalog) => {
    const { catalogs } = stores();
    const error = await catalogs.upsert(catalog).catch((e: unknown) => e);
    expect((error as ZodError).issues).toEqual([
      expect.objectContaining({ path: ['id'], message: expect.stringContaining('"weather@2"') }),
    ]);
  });

  it('keeps kinds apart in one table, and survives a restart', async () => {
    const temp = temps.open();
    const first = createEmbeddedStores(temp.db, temp.changeLog);
    await first.suites.create(sampleSuite('same'));
    await first.clients.create(sampleClient('same'));
    const again = createEmbeddedStores(temps.reopen(temp).db, temp.changeLog);
    expect((await again.suites.list()).items.map((s) => s.name)).toEqual(['Suite same']);
    expect((await again.clients.get('same'))?.name).toBe('Client same');
    expect(await again.targets.get('same')).toBeUndefined();
  });
});
