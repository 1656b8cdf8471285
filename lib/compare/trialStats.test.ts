import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trialStatsOf, type TrialOutcome } from './trialStats.js';

const trialsOf = (caseId: string, outcomes: boolean[]): TrialOutcome[] =>
  outcomes.map((overall_passed, i) => ({ test_case_id: caseId, ...(i > 0 ? { trial: i + 1 } : {}), overall_passed }));

describe('trial statistics of a run', () => {
  it('hand-computed: 3 cases x 3 trials', async () => {
    const cards = [...trialsOf('a', [true, false, true]), ...trialsOf('b', [false, false, false]), ...trialsOf('c', [true, true, true])];
    expect(await trialStatsOf(cards, 3)).toEqual({
      trials: 3,
      cases: 3,
      complete_cases: 3,
      pass_at_1: (2 / 3 + 0 + 1) / 3,
      pass_at_k: (1 + 0 + 1) / 3,
      pass_hat_k: (0 + 0 + 1) / 3,
      flaky_cases: 1,
      flaky_case_ids: ['a'],
    });
  });

  it('while trials are still coming in, pass@k and pass^k use only the complete cases; a redelivered trial counts once', async () => {
    const cards = [
      ...trialsOf('a', [true, false]),
      ...trialsOf('b', [true, true, true]),
      { test_case_id: 'b', trial: 3, overall_passed: true },
    ];
    const stats = await trialStatsOf(cards, 3);
    expect([stats.cases, stats.complete_cases, stats.pass_at_k, stats.pass_hat_k]).toEqual([2, 1, 1, 1]);
    expect(stats.pass_at_1).toBeCloseTo((0.5 + 1) / 2, 12);
  });

  it('no cards: nulls', async () => {
    expect(await trialStatsOf([], 2)).toMatchObject({ cases: 0, pass_at_1: null, pass_at_k: null, pass_hat_k: null, flaky_cases: 0 });
  });

  it('property: pass^k <= pass@1 <= pass@k over any run; flaky cases are exactly the ones whose trials disagree', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 6 })
          .chain((k) =>
            fc.tuple(fc.constant(k), fc.array(fc.array(fc.boolean(), { minLength: k, maxLength: k }), { minLength: 1, maxLength: 20 })),
          ),
        async ([k, runs]) => {
          const cards = runs.flatMap((outcomes, i) => trialsOf(`case-${i}`, outcomes));
          const stats = await trialStatsOf(cards, k);
          expect(stats.pass_hat_k!).toBeLessThanOrEqual(stats.pass_at_1! + 1e-12);
          expect(stats.pass_at_1!).toBeLessThanOrEqual(stats.pass_at_k! + 1e-12);
          expect(stats.flaky_cases).toBe(runs.filter((o) => o.includes(true) && o.includes(false)).length);
        },
      ),
    );
  });
});
