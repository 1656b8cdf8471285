import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../host/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';
import { sampleBenchmarkRun, sampleClient, sampleSuite, sampleTarget, sampleTestCase } from '../ports/contracts/fixtures.js';
import { scopedStores } from '../tenancy/index.js';
import { benchmarkTaskRunId, startBenchmarkTask } from './benchmarks.js';
import { emptyTriggerResult } from './triggers/index.js';
import { fireTrigger } from './triggers/triggerRun.js';

let platform: EmbeddedPlatform;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-bench-org-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger, env: { ...process.env, EVALP_DEMO: 'off' } });
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('runs started by unscoped workers belong to the organization that asked for them', () => {
  it("the orchestrator's unscoped activity creates the task's run in that organization, on its suite and target", async () => {
    const { stores, clock } = platform.services;
    const acme = scopedStores(stores, 'acme');
    await acme.testCases.upsertTestCases([sampleTestCase('acme-case')]);
    await acme.suites.create({ ...sampleSuite('suite-1'), test_case_ids: ['acme-case'] });
    await acme.targets.create(sampleTarget('target-1'));
    await acme.benchmarkRuns.create(sampleBenchmarkRun('bnr-acme'));

    const started = await startBenchmarkTask('bnr-acme', 'smoke', { stores, clock });

    const runId = benchmarkTaskRunId('bnr-acme', 'smoke');
    expect(started).toEqual({ run_id: runId, reason: null });
    expect((await stores.runs.getRun(runId))?.organization).toBe('acme');
    expect(await acme.runs.getRun(runId)).toMatchObject({ suite_id: 'suite-1', target_id: 'target-1' });
    expect(await scopedStores(stores, 'default').runs.getRun(runId)).toBeUndefined();
  });

  it("a trigger's run is its client's organization's", async () => {
    const { stores, clock } = platform.services;
    const acme = scopedStores(stores, 'acme');
    await acme.clients.create(sampleClient('acme-client'));
    const result = emptyTriggerResult();
    await fireTrigger(
      'new_cases',
      { client_id: 'acme-client', suite_id: 'suite-1', target_id: 'target-1', run_id: 'trig-acme', trigger_metadata: {} },
      { stores, clock },
      undefined,
      result,
    );
    expect(result.skipped).toEqual([]);
    expect((await stores.runs.getRun('trig-acme'))?.organization).toBe('acme');
    expect(await scopedStores(stores, 'default').runs.getRun('trig-acme')).toBeUndefined();
  });
});
