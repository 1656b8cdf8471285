import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run, RunStats } from '../../domain/index.js';
import { startRetailPlatform, type RetailPlatform } from '../../reports/testing/retailPlatform.test-helpers.js';
import { runCliInProcess } from './cliRunner.test-helpers.js';

let retail: RetailPlatform;
let run: Run & { stats: RunStats };

beforeAll(async () => {
  retail = await startRetailPlatform();
  run = await retail.runModel('simulated-model-a');
}, 120_000);
afterAll(async () => retail?.stop());

const conn = (): string[] => ['--url', retail.url, '--key', retail.key];
const getRun = async (id: string) =>
  (await (await fetch(`${retail.url}/api/v1/runs/${id}`, { headers: { authorization: `Bearer ${retail.key}` } })).json()) as Run & {
    stats: RunStats;
    total_cases: number;
  };

describe('evalp replay against a real embedded platform', () => {
  it('--only-failed starts a run of exactly the failed cases, baseline the original, and waits for it', async () => {
    const failed = run.stats.completed - run.stats.passed;
    expect(failed).toBeGreaterThan(0);
    const r = await runCliInProcess(['replay', run.id, '--only-failed', '--wait', ...conn()]);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(r.stderr).toContain(`replay of ${run.id}: run ${id} of its failed cases, baseline ${run.id}`);
    const replay = await getRun(id);
    expect([replay.status, replay.total_cases, replay.baseline_run_id, replay.triggered_by, replay.trigger_metadata.replay_of]).toEqual([
      'completed',
      failed,
      run.id,
      'retry',
      run.id,
    ]);
    // the same recorded outputs fail the same way: the failed cases fail again
    expect(replay.stats.passed).toBe(0);
  }, 120_000);

  it('without --only-failed runs the whole suite again on the same target and config', async () => {
    const r = await runCliInProcess(['replay', run.id, ...conn()]);
    expect(r.code).toBe(0);
    const replay = await getRun(r.stdout.trim());
    expect([replay.suite_id, replay.target_id, replay.total_cases, replay.baseline_run_id]).toEqual([
      run.suite_id,
      run.target_id,
      run.total_cases,
      run.id,
    ]);
    expect(replay.config).toEqual(run.config);
  });

  it('names the reason when the run cannot be replayed (exit 2 for an unknown run)', async () => {
    const r = await runCliInProcess(['replay', 'no-such-run', '--only-failed', ...conn()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no-such-run');
  });
});
