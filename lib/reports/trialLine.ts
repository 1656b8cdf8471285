import type { TrialStats } from '../domain/index.js';

const pct = (x: number | null): string => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);

/**
 * The trial statistics of a run with `trials: k` as one sentence, e.g. `3 trials per case (3 of 3 cases complete):
 * pass@1 55.6%, pass@3 66.7%, pass^3 33.3%; 1 flaky case: weather-flaky`. At most 5 flaky case ids are named.
 */
export function trialLine(t: TrialStats): string {
  const k = t.trials;
  const flaky =
    t.flaky_cases === 0
      ? 'no flaky case'
      : `${t.flaky_cases} flaky case${t.flaky_cases === 1 ? '' : 's'}: ${t.flaky_case_ids.slice(0, 5).join(', ')}${t.flaky_cases > 5 ? ', …' : ''}`;
  return `${k} trials per case (${t.complete_cases} of ${t.cases} cases complete): pass@1 ${pct(t.pass_at_1)}, pass@${k} ${pct(t.pass_at_k)}, pass^${k} ${pct(t.pass_hat_k)}; ${flaky}`;
}
