import { afterEach, describe, expect, it } from 'vitest';
import type { Scorecard } from '../domain/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleScorecard } from '../ports/contracts/fixtures.js';
import { checkRunRegressions } from './checkRunRegressions.js';
import { ACCURACY_TRIALS_TEST } from './evidenceFrom.js';
import { acceptingQueue, RETAIL_CLOCK as clock, storeRun, tempStores } from './retailRuns.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

/** 40 cases x 3 trials; `outcomes(i)` gives case i's trials: P passed, F failed, X a target error (not scored). */
function run(runId: string, outcomes: (i: number) => string): Scorecard[] {
  return Array.from({ length: 40 }, (_, i) => `case-${String(i).padStart(2, '0')}`).flatMap((caseId, i) =>
    [...outcomes(i)].map((o, t) => ({
      ...(o === 'X'
        ? sampleScorecard(runId, caseId, { passed: false, failing_stage: 'execution', error_code: 'target_error' })
        : sampleScorecard(runId, caseId, { passed: o === 'P' })),
      trial: t + 1,
    })),
  );
}

/**
 * Baseline: every case passes all its scored trials (case 0's second trial is a target error: 2 of 2). Current:
 * cases 0-9 pass 1 of 3 trials, cases 10-19 pass 2 of 3, cases 20-39 pass all (case 39's third trial is a target
 * error: 2 of 2). Per-case means: baseline 1 everywhere; current 1/3 x 10, 2/3 x 10, 1 x 20 = 0.75 (a 25-point drop).
 * Paired t on the 40 differences (-2/3 x 10, -1/3 x 10, 0 x 20): mean -0.25, t = -5.648813 on 39 df,
 * p = 1.592034e-6 (hand-computed, checked with scipy.stats.ttest_1samp). Trial by trial, the pairs would have been
 * 120 trials, and a target error would have counted as a failure.
 */
const baselineCards = run('trials-base', (i) => (i === 0 ? 'PXP' : 'PPP'));
const currentCards = run('trials-cur', (i) => (i < 10 ? 'FPF' : i < 20 ? 'PPF' : i === 39 ? 'PPX' : 'PPP'));

describe('regression alerts on per-case trial means', () => {
  it.each(['scorecards', 'statistics'] as const)(
    'a trial-mean drop raises a critical accuracy alert (current read from %s)',
    async (source) => {
      const stores = tempStores(temps);
      await storeRun(stores, 'trials-base', baselineCards, { total_cases: 40 });
      const current = await storeRun(stores, 'trials-cur', currentCards, {
        total_cases: 40,
        baseline_run_id: 'trials-base',
        status: 'running',
      });
      const check = await checkRunRegressions(current, { live: false, currentSource: source }, { stores, queue: acceptingQueue, clock });
      expect(check.evidence?.paired_cases).toBe(40);
      expect(check.evidence?.accuracy).toEqual({ previous: 1, current: 0.75, p_value: expect.any(Number), test: ACCURACY_TRIALS_TEST });
      expect(check.evidence!.accuracy!.p_value).toBeCloseTo(1.592034e-6, 11);
      expect(check.alerts.map((a) => [a.metric, a.severity, a.previous, a.current, a.change, a.test, a.paired_cases])).toEqual([
        ['accuracy', 'critical', 1, 0.75, -25, ACCURACY_TRIALS_TEST, 40],
      ]);
      expect(check.alerts[0]!.p_value).toBeCloseTo(1.592034e-6, 11);
      // identical latencies and costs: nothing else alerts
      expect([check.evidence?.latency_p95?.p_value, check.evidence?.cost_per_case?.p_value]).toEqual([1, 1]);
    },
  );

  it('no alert when the trial means do not move, even though single trials differ', async () => {
    const stores = tempStores(temps);
    // every case passes 2 of 3 trials in both runs, but a different trial fails: trial-by-trial pairing would see 80 flips
    await storeRun(
      stores,
      'flaky-base',
      run('flaky-base', () => 'PPF'),
      { total_cases: 40 },
    );
    const current = await storeRun(
      stores,
      'flaky-cur',
      run('flaky-cur', () => 'FPP'),
      { total_cases: 40, baseline_run_id: 'flaky-base' },
    );
    const check = await checkRunRegressions(current, { live: false }, { stores, queue: acceptingQueue, clock });
    expect(check.evidence?.accuracy).toEqual({
      previous: expect.any(Number),
      current: expect.any(Number),
      p_value: 1,
      test: ACCURACY_TRIALS_TEST,
    });
    expect([check.evidence!.accuracy!.previous, check.evidence!.accuracy!.current].map((x) => x.toFixed(12))).toEqual([
      '0.666666666667',
      '0.666666666667',
    ]);
    expect(check.alerts).toEqual([]);
  });
});
