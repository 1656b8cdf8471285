import { describe, expect, it } from 'vitest';
import type { Scorecard } from '../../domain/index.js';
import { sampleScorecard } from '../../ports/contracts/fixtures.js';
import { runCardStats } from './runCardStats.js';

const card = (caseId: string, trial: number, outcome: 'passed' | 'failed' | 'target_error'): Scorecard => {
  const base = sampleScorecard('run', caseId);
  if (outcome === 'passed') return { ...base, trial, overall_passed: true };
  const error = outcome === 'target_error';
  return {
    ...base,
    trial,
    overall_passed: false,
    failing_stage: 'syntax',
    error_code: error ? 'target_error' : 'unknown_tool',
    stages: {
      ...base.stages,
      syntax: { ...base.stages.syntax, status: error ? 'error' : 'failed', passed: false, score: error ? null : 0 },
    },
  };
};

async function* stream(cards: Scorecard[]): AsyncIterable<Scorecard> {
  yield* cards;
}

describe('runCardStats', () => {
  it('leaves trials lost to an infrastructure fault out of the trial statistics (not a failed attempt)', async () => {
    const cards = [
      card('a', 1, 'passed'),
      card('a', 2, 'target_error'),
      card('a', 3, 'passed'),
      card('b', 1, 'passed'),
      card('b', 2, 'failed'),
    ];
    const { trial_stats } = await runCardStats(stream(cards), { trials: 2, efficiency: false });
    // a: 2 scored trials, both passed (not flaky, pass^2 = 1); b: 1 of 2 passed (flaky)
    expect(trial_stats).toMatchObject({
      cases: 2,
      complete_cases: 2,
      pass_at_1: 0.75,
      pass_hat_k: 0.5,
      flaky_cases: 1,
      flaky_case_ids: ['b'],
    });
  });
});
