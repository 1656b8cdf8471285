import { isScored, type EfficiencyStats, type Scorecard, type TrialStats } from '../../domain/index.js';
import { EfficiencyStatsBuilder, trialStatsOf, type TrialOutcome } from '../../compare/index.js';

/**
 * The statistics of a run that are read from its scorecards rather than the live fold, in one scan: trial statistics
 * (runs with `trials` > 1) and efficiency (finished runs: a scan per read of a running run would cost too much).
 */
export async function runCardStats(
  cards: AsyncIterable<Scorecard>,
  want: { trials: number; efficiency: boolean },
): Promise<{ trial_stats?: TrialStats; efficiency?: EfficiencyStats }> {
  if (want.trials <= 1 && !want.efficiency) return {};
  const outcomes: TrialOutcome[] = [];
  const efficiency = new EfficiencyStatsBuilder();
  for await (const card of cards) {
    // a trial lost to an infrastructure fault is not scored: it is not a failed attempt of the model (pass^k, flaky)
    if (want.trials > 1 && isScored(card))
      outcomes.push({ test_case_id: card.test_case_id, trial: card.trial, overall_passed: card.overall_passed });
    if (want.efficiency) efficiency.add(card);
  }
  return {
    ...(want.trials > 1 ? { trial_stats: await trialStatsOf(outcomes, want.trials) } : {}),
    ...(want.efficiency ? { efficiency: efficiency.result() } : {}),
  };
}
