import { describe, expect, it } from 'vitest';
import type { Scorecard } from '../domain/index.js';
import type { Stores } from '../ports/index.js';
import { aggregateOutcomes } from '../runs/aggregateOutcomes.js';
import { finalizeRun } from '../runs/finalizeRun.js';
import { caseOutcomeOf } from '../domain/stats/index.js';
import { liveCheckStep, liveRegressionChecks } from './liveRegressionChecks.js';
import { acceptingQueue as queue, RETAIL_CLOCK as clock, storeRun, tempStores, useRetailRuns } from './retailRuns.test-helpers.js';

const { a, b, temps } = useRetailRuns();

describe('liveCheckStep', () => {
  it.each<[number, number, number | undefined]>([
    [199, 60, undefined],
    [200, 24.9, undefined],
    [200, 25, 1],
    [300, 49.9, 1],
    [400, 50, 2],
    [1000, 75, 3],
    [1300, 99.9, 3],
    [1333, 100, undefined],
  ])('%i cases at %f%% -> step %s', (completed, progress_pct, step) => {
    expect(liveCheckStep({ completed, progress_pct })).toBe(step);
  });
});

/**
 * The change feed's path, as functions/feeds/runStatsFeed.ts runs it: a batch of feed documents (case outcomes)
 * folded by aggregateOutcomes, then liveRegressionChecks on the statistics it returns.
 */
async function feed(stores: Stores, cards: readonly Scorecard[]) {
  await stores.scorecards.upsertScorecards(cards);
  const result = await aggregateOutcomes(cards.map(caseOutcomeOf), stores);
  return liveRegressionChecks(result.stats, { stores, queue, clock });
}

describe('live regression checks from the change feed', () => {
  it('raises live alerts once enough cases are in, once per progress quarter, and the finished run confirms them', async () => {
    const stores = tempStores(temps);
    await storeRun(stores, 'run-a', a);
    await stores.runs.createRun({
      ...(await stores.runs.getRun('run-a'))!,
      id: 'run-b',
      status: 'running',
      baseline_run_id: 'run-a',
      target_id: 'simulated-model-b',
      created_at: '2026-03-01T13:00:00.000Z',
    });
    const cards = b.map((c) => ({ ...c, run_id: 'run-b' }));
    // 150 of 327 (46%): too few cases for a live check
    expect(await feed(stores, cards.slice(0, 150))).toEqual({ checks: [], failed: [] });
    // 250 (76%): step 3, checked once
    const first = await feed(stores, cards.slice(150, 250));
    expect(first.checks.map((c) => [c.evidence?.paired_cases, c.alerts.map((x) => [x.id, x.severity, x.live])])).toEqual([
      [
        250,
        [
          ['run-b:accuracy', 'high', true],
          ['run-b:cost_per_case', 'high', true],
        ],
      ],
    ]);
    // the same batch redelivered, and more cases within the same quarter: no new check
    expect(await feed(stores, cards.slice(150, 250))).toEqual({ checks: [], failed: [] });
    expect(await feed(stores, cards.slice(250, 300))).toEqual({ checks: [], failed: [] });
    // every case in: the feed leaves the run to finalizeRun
    expect(await feed(stores, cards.slice(300))).toEqual({ checks: [], failed: [] });
    expect((await stores.alerts.listAlerts({ run_id: 'run-b' })).items.map((x) => [x.id, x.live, x.paired_cases])).toEqual([
      ['run-b:cost_per_case', true, 250],
      ['run-b:accuracy', true, 250],
    ]);
    const finalized = await finalizeRun('run-b', 'completed', { stores, queue, clock });
    expect([finalized.status, finalized.alert_ids]).toEqual(['completed', ['run-b:accuracy', 'run-b:cost_per_case']]);
    expect((await stores.alerts.listAlerts({ run_id: 'run-b' })).items.map((x) => [x.id, x.live, x.paired_cases, x.created_at])).toEqual([
      ['run-b:cost_per_case', false, 327, clock.now().toISOString()],
      ['run-b:accuracy', false, 327, clock.now().toISOString()],
    ]);
  });

  it('checks nothing for a run without a baseline, a finished run, or a batch of foreign documents', async () => {
    const stores = tempStores(temps);
    await storeRun(stores, 'run-a', a.slice(0, 1), { status: 'running', total_cases: 327 });
    await storeRun(stores, 'run-done', a.slice(0, 1), { status: 'completed', total_cases: 327, created_at: '2026-03-01T13:00:00.000Z' });
    expect(
      await feed(
        stores,
        a.slice(0, 250).map((c) => ({ ...c, run_id: 'run-a' })),
      ),
    ).toEqual({ checks: [{ run_id: 'run-a', baseline: null, evidence: null, alerts: [] }], failed: [] });
    expect(
      await feed(
        stores,
        a.slice(0, 250).map((c) => ({ ...c, run_id: 'run-done' })),
      ),
    ).toEqual({ checks: [], failed: [] });
    const foreign = await aggregateOutcomes([{ id: 'x' }, { run_id: 'nope' }], stores);
    expect(await liveRegressionChecks(foreign.stats, { stores, queue, clock })).toEqual({ checks: [], failed: [] });
  });
});
