import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComparisonSchema, type Comparison, type Scorecard } from '../domain/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleScorecard } from '../ports/contracts/fixtures.js';
import { compareRuns } from './compareRuns.js';
import { openStores, storeRun, type TestStores } from './retail.test-helpers.js';

/**
 * Two 3-trial runs of four cases, compared on per-case trial means. P = passed, F = failed (at logic), X = a target
 * error (infrastructure: not scored, left out of its case's mean).
 *   case  run A   mean A   run B   mean B   B - A
 *   c1    P P P   1        P P F   2/3      -1/3
 *   c2    P P X   1 (2/2)  P F F   1/3      -2/3
 *   c3    P F F   1/3      F P F   1/3       0
 *   c4    F F F   0        F F P   1/3      +1/3
 * Hand-computed (and checked with scipy.stats.ttest_1samp): mean difference -1/6, sample sd of the differences
 * sqrt(5/27) = 0.430331, t = -0.774597 on 3 df, two-sided p = 0.495025; 95% interval -1/6 ± 3.182446 · 0.215166 =
 * [-0.851420, 0.518087]. Pass rates (pass@1): A 7/12, B 5/12. Bayesian view on the trials: A 6 of 11, B 5 of 12.
 */
const RUNS: Record<string, Record<string, string>> = {
  'trials-a': { c1: 'PPP', c2: 'PPX', c3: 'PFF', c4: 'FFF' },
  'trials-b': { c1: 'PPF', c2: 'PFF', c3: 'FPF', c4: 'FFP' },
};

function cardsOf(runId: string): Scorecard[] {
  return Object.entries(RUNS[runId]!).flatMap(([caseId, outcomes]) =>
    [...outcomes].map((o, t) => {
      const card =
        o === 'X'
          ? sampleScorecard(runId, caseId, { passed: false, failing_stage: 'execution', error_code: 'target_error' })
          : sampleScorecard(runId, caseId, { passed: o === 'P' });
      return { ...card, trial: t + 1, latency_ms: 100 * (t + 1) + caseId.charCodeAt(1) };
    }),
  );
}

const temps = new TempDatabases();
let stores: TestStores;
let comparison: Comparison;
const clock = { now: () => new Date('2026-11-26T04:00:00.000Z') };

beforeAll(async () => {
  stores = openStores(temps);
  for (const id of Object.keys(RUNS)) await storeRun(stores, id, cardsOf(id), { total_cases: 4 });
  await storeRun(
    stores,
    'one-trial-a',
    cardsOf('trials-a').filter((c) => c.trial === 1),
    { total_cases: 4 },
  );
  comparison = await compareRuns(['trials-a', 'trials-b'], { stores, clock }, { seed: 3 });
}, 60_000);

afterAll(() => temps.closeAll());

describe('compareRuns with 3 trials a case: paired on per-case trial means', () => {
  it('pairs the 4 cases (not the 12 trials), each run summarised by pass@1 with the not-scored trial left out', () => {
    expect(ComparisonSchema.parse(comparison)).toBeTruthy();
    const [a, b] = comparison.runs;
    expect([a!.pass_rate.n, a!.pass_rate.rate, a!.not_scored]).toEqual([4, 7 / 12, 1]);
    expect(a!.pass_rate.passed).toBeCloseTo(7 / 3, 12);
    expect([b!.pass_rate.n, b!.not_scored]).toEqual([4, 0]);
    expect(b!.pass_rate.rate).toBeCloseTo(5 / 12, 12);
    // t interval over the per-case fractions (clamped to [0, 1]): A 0.583333 ± 0.795611, B 0.416667 [0.151463, 0.681871]
    expect([a!.pass_rate.lower, a!.pass_rate.upper]).toEqual([0, 1]);
    expect(b!.pass_rate.lower).toBeCloseTo(0.151463, 5);
    expect(b!.pass_rate.upper).toBeCloseTo(0.681871, 5);
    // mean score: per-case means of 1 (passed) and 0.3 (failed) trials
    expect(a!.mean_score).toBeCloseTo((1 + 1 + 1.6 / 3 + 0.3) / 4, 12);
    expect(b!.mean_score).toBeCloseTo((2.3 / 3 + (3 * 1.6) / 3) / 4, 12);
    expect(comparison.pairs[0]!.cases).toEqual({ baseline: 4, candidate: 4, shared: 4, only_baseline: 0, only_candidate: 0 });
  });

  it('tests the change with the paired t-test on the per-case means (McNemar does not apply to fractions)', () => {
    const { overall } = comparison.pairs[0]!;
    expect(overall.test).toBe('paired t on per-case trial means');
    expect(overall.paired_cases).toBe(4);
    expect(overall.difference).toBeCloseTo(-1 / 6, 12);
    expect(overall.p_value).toBeCloseTo(0.4950253, 6);
    expect(overall.mid_p_value).toBe(overall.p_value);
    expect(overall.lower).toBeCloseTo(-0.8514201, 6);
    expect(overall.upper).toBeCloseTo(0.5180868, 6);
    expect([overall.newly_failing, overall.newly_passing, overall.significant]).toEqual([2, 1, false]);
    expect(comparison.pairs[0]!.by_category).toEqual([expect.objectContaining({ key: 'weather', p_value_adjusted: overall.p_value })]);
  });

  it('lists the cases whose mean fell or rose with both pass fractions', () => {
    const { flipped } = comparison.pairs[0]!;
    expect(flipped.newly_failing.cases.map((c) => [c.test_case_id, c.baseline.pass_fraction, c.candidate.pass_fraction])).toEqual([
      ['c1', 1, 2 / 3],
      ['c2', 1, 1 / 3],
    ]);
    expect(flipped.newly_passing.cases.map((c) => [c.test_case_id, c.baseline.pass_fraction, c.candidate.pass_fraction])).toEqual([
      ['c4', 0, 1 / 3],
    ]);
  });

  it('takes the Bayesian view over the paired cases’ scored trials (A 6 of 11, B 5 of 12)', async () => {
    const { bayesianPassRateComparison } = await import('../statistics/index.js');
    expect(comparison.pairs[0]!.bayesian).toEqual(
      bayesianPassRateComparison({ passed: 6, n: 11 }, { passed: 5, n: 12 }, { seed: 3, confidence: 0.95 }),
    );
  });

  it('pairs a one-trial run with a 3-trial run case by case', async () => {
    const mixed = await compareRuns(['one-trial-a', 'trials-b'], { stores, clock }, { seed: 3 });
    const { overall } = mixed.pairs[0]!;
    // A's trial 1: P P P F; differences -1/3, -2/3, -2/3, +1/3 (mean -1/3)
    expect([overall.paired_cases, overall.test, overall.newly_failing, overall.newly_passing]).toEqual([
      4,
      'paired t on per-case trial means',
      3,
      1,
    ]);
    expect(overall.difference).toBeCloseTo(-1 / 3, 12);
    expect(mixed.runs[0]!.pass_rate).toEqual(expect.objectContaining({ passed: 3, n: 4, rate: 0.75 }));
  });
});

describe('pairedMeansPValue', () => {
  it('is the paired t-test, or the exact sign test when every case moved by the same amount', async () => {
    const { pairedMeansPValue } = await import('./pairedMeans.js');
    // differences -1/3 x 3: no spread; the t statistic would be infinite (p = 0), the sign test gives 2 * 0.5^3
    expect(pairedMeansPValue({ n: 3, mean: -1 / 3, variance: 0 }, 3, 0)).toBeCloseTo(0.25, 12);
    // the 3-trial comparison above: t = -0.774597 on 3 df
    expect(pairedMeansPValue({ n: 4, mean: -1 / 6, variance: 5 / 27 }, 2, 1)).toBeCloseTo(0.4950253, 6);
    expect(pairedMeansPValue({ n: 1, mean: -1, variance: 0 }, 1, 0)).toBe(1);
  });
});
