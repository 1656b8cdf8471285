import type { TrialStats } from '../domain/index.js';
import { passAtK, passHatK } from '../statistics/index.js';

const MAX_LISTED_FLAKY = 100;

/** What trial statistics read of a scorecard. */
export interface TrialOutcome {
  test_case_id: string;
  trial?: number | undefined;
  overall_passed: boolean;
}

/**
 * Folds a run's scorecards (every trial of every case, any order) into its trial statistics: per case n trials
 * scored and c passed; pass@1 = mean of c/n over cases; pass@k and pass^k = means of the unbiased estimators over the
 * cases with n >= k; flaky = 0 < c < n. A trial seen twice counts once (the last one read).
 */
export async function trialStatsOf(cards: AsyncIterable<TrialOutcome> | Iterable<TrialOutcome>, trials: number): Promise<TrialStats> {
  const byCase = new Map<string, Map<number, boolean>>();
  for await (const card of cards) {
    let outcomes = byCase.get(card.test_case_id);
    if (!outcomes) byCase.set(card.test_case_id, (outcomes = new Map()));
    outcomes.set(card.trial ?? 1, card.overall_passed);
  }
  let fractionSum = 0;
  let atKSum = 0;
  let hatKSum = 0;
  let complete = 0;
  const flaky: string[] = [];
  for (const [caseId, outcomes] of byCase) {
    const n = outcomes.size;
    let c = 0;
    for (const passed of outcomes.values()) if (passed) c++;
    fractionSum += c / n;
    if (c > 0 && c < n) flaky.push(caseId);
    if (n >= trials) {
      complete++;
      atKSum += passAtK(n, c, trials);
      hatKSum += passHatK(n, c, trials);
    }
  }
  const cases = byCase.size;
  flaky.sort();
  return {
    trials,
    cases,
    complete_cases: complete,
    pass_at_1: cases === 0 ? null : fractionSum / cases,
    pass_at_k: complete === 0 ? null : atKSum / complete,
    pass_hat_k: complete === 0 ? null : hatKSum / complete,
    flaky_cases: flaky.length,
    flaky_case_ids: flaky.slice(0, MAX_LISTED_FLAKY),
  };
}
