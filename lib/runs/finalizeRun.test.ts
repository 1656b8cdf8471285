import { describe, expect, it } from 'vitest';
import { acceptingQueue as queue, RETAIL_CLOCK as clock, RETAIL_MODELS, storeRun, tempStores, useRetailRuns } from '../alerts/retailRuns.test-helpers.js';
import { finalizeRun } from './finalizeRun.js';

const { a, b, temps } = useRetailRuns();

const LATER = '2026-03-01T13:00:00.000Z';

describe('finalizeRun', () => {
  it('records regression alerts against the baseline and notes a model version change on the same target; idempotent', async () => {
    const stores = tempStores(temps);
    await storeRun(stores, 'run-a', a);
    // the same target now answers with model B's outputs: the baseline is found automatically
    await storeRun(stores, 'run-b', b, { status: 'running', created_at: LATER });
    const first = await finalizeRun('run-b', 'completed', { stores, clock, queue });
    const again = await finalizeRun('run-b', 'completed', { stores, clock, queue });
    expect([first.status, first.alert_ids, again.alert_ids]).toEqual(['completed', ['run-b:accuracy', 'run-b:cost_per_case'], ['run-b:accuracy', 'run-b:cost_per_case']]);
    const run = await stores.runs.getRun('run-b');
    expect([run?.status, run?.completed_at, run?.notes]).toEqual([
      'completed',
      clock.now().toISOString(),
      [`model version changed since baseline run run-a: ${RETAIL_MODELS.a} -> ${RETAIL_MODELS.b}`],
    ]);
    expect((await stores.alerts.listAlerts({ run_id: 'run-b' })).total).toBe(2);
  });

  it('notes versions changing within the run, and no baseline change when the baseline ran another target', async () => {
    const stores = tempStores(temps);
    await storeRun(stores, 'run-a', a, { target_id: 'retail-model-x' });
    const mixed = [...a.slice(0, 100), ...b.slice(100)];
    await storeRun(stores, 'run-m', mixed, { status: 'running', created_at: LATER, baseline_run_id: 'run-a' });
    await finalizeRun('run-m', 'completed', { stores, clock, queue });
    expect((await stores.runs.getRun('run-m'))?.notes).toEqual([`model version changed during the run: ${RETAIL_MODELS.b}, ${RETAIL_MODELS.a}`]);
  });

  it('raises nothing for a cancelled run and records nothing for a run without a baseline', async () => {
    const stores = tempStores(temps);
    await storeRun(stores, 'run-a', a);
    await storeRun(stores, 'run-b', b, { status: 'running', created_at: LATER });
    const cancelled = await finalizeRun('run-b', 'cancelled', { stores, clock, queue });
    const first = await finalizeRun('run-a', 'completed', { stores, clock, queue });
    expect([cancelled.status, cancelled.alert_ids, first.alert_ids, (await stores.alerts.listAlerts()).total]).toEqual(['cancelled', [], [], 0]);
  });
});
