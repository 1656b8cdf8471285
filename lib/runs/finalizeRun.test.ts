import { describe, expect, it } from 'vitest';
import {
  acceptingQueue as queue,
  RETAIL_CLOCK as clock,
  RETAIL_MODELS,
  storeRun,
  tempStores,
  useRetailRuns,
} from '../alerts/retailRuns.test-helpers.js';
import { finalizeRun } from './finalizeRun.js';
import type { Scorecard } from '../domain/index.js';

/** The card a case gets when its target failed for good (infrastructure): not scored. */
function targetDown(card: Scorecard): Scorecard {
  const skipped = (stage: 'logic' | 'execution' | 'semantics') => ({
    stage,
    status: 'skipped' as const,
    passed: false,
    score: null,
    duration_ms: 0,
  });
  return {
    ...card,
    stages: {
      syntax: {
        stage: 'syntax',
        status: 'error',
        passed: false,
        score: null,
        error_code: 'target_error',
        message: 'target answered HTTP 503',
        duration_ms: 0,
      },
      logic: skipped('logic'),
      execution: skipped('execution'),
      semantics: skipped('semantics'),
    },
    failing_stage: 'syntax',
    error_code: 'target_error',
    generated_tool_calls: [],
    tool_results: [],
    overall_passed: false,
    overall_score: 0,
    outcome: 'not_scored',
  };
}

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
    expect([first.status, first.alert_ids, again.alert_ids]).toEqual([
      'completed',
      ['run-b:accuracy', 'run-b:cost_per_case'],
      ['run-b:accuracy', 'run-b:cost_per_case'],
    ]);
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
    expect((await stores.runs.getRun('run-m'))?.notes).toEqual([
      `model version changed during the run: ${RETAIL_MODELS.a}, ${RETAIL_MODELS.b}`,
    ]);
  });

  it('raises nothing for a cancelled run and records nothing for a run without a baseline', async () => {
    const stores = tempStores(temps);
    await storeRun(stores, 'run-a', a);
    await storeRun(stores, 'run-b', b, { status: 'running', created_at: LATER });
    const cancelled = await finalizeRun('run-b', 'cancelled', { stores, clock, queue });
    const first = await finalizeRun('run-a', 'completed', { stores, clock, queue });
    expect([cancelled.status, cancelled.alert_ids, first.alert_ids, (await stores.alerts.listAlerts()).total]).toEqual([
      'cancelled',
      [],
      [],
      0,
    ]);
  });

  it('a flaky target (8% of cases down) gives a degraded run whose pass rate, stage rates and alerts are those of the healthy cases', async () => {
    const stores = tempStores(temps);
    await storeRun(stores, 'run-a', a);
    const flaky = a.map((card, i) => (i % 12 === 5 ? targetDown(card) : card));
    const down = flaky.filter((c) => c.error_code === 'target_error').length;
    await storeRun(stores, 'run-f', flaky, { status: 'running', created_at: LATER });
    const healthy = a.filter((_, i) => i % 12 !== 5);
    const result = await finalizeRun('run-f', 'completed', { stores, clock, queue });
    expect(result.status).toBe('degraded');
    expect(result.stats).toMatchObject({
      completed: a.length,
      not_scored: down,
      scored: a.length - down,
      passed: healthy.filter((c) => c.overall_passed).length,
      pass_rate: healthy.filter((c) => c.overall_passed).length / healthy.length,
      infrastructure_failure_rate: down / a.length,
    });
    // the same model on the healthy cases: no accuracy regression against the fault-free baseline
    expect(result.alert_ids).toEqual([]);
    const run = await stores.runs.getRun('run-f');
    expect(run?.status).toBe('degraded');
    expect(run?.notes).toContain(
      `degraded: ${down} of ${a.length} cases not scored (infrastructure-failure rate ${((down / a.length) * 100).toFixed(1)}% > 5.0%); the pass rate covers the ${a.length - down} scored cases`,
    );
  });

  it('stays completed when the not-scored share is within max_not_scored_share', async () => {
    const stores = tempStores(temps);
    const few = a.map((card, i) => (i < 3 ? targetDown(card) : card));
    await storeRun(stores, 'run-f', few, { status: 'running' });
    expect((await finalizeRun('run-f', 'completed', { stores, clock, queue })).status).toBe('completed');
  });
});
