import {
  addEfficiency,
  type Efficiency,
  type EfficiencyStats,
  type EfficiencySums,
  efficiencyStatsOfSums,
  emptyEfficiencySums,
  isScored,
  type OutcomeFacts,
} from '../domain/index.js';

/** What efficiency statistics read of a scorecard. */
export interface EfficiencyOutcome extends OutcomeFacts {
  efficiency?: Efficiency | undefined;
}

/**
 * Folds a run's scorecards into its efficiency statistics: over the scored cases that carry an efficiency (not-scored
 * cases never count), the mean efficiency score, calls made, needed and redundant, the cases with a redundant call,
 * mean model turns and mean tokens. O(1) memory; the same integer sums as the live run statistics (efficiencyStatsOfSums).
 */
export class EfficiencyStatsBuilder {
  private readonly sums: EfficiencySums = emptyEfficiencySums();

  add(card: EfficiencyOutcome): void {
    if (card.efficiency && isScored(card)) addEfficiency(this.sums, card.efficiency, 1);
  }

  result(): EfficiencyStats {
    return efficiencyStatsOfSums(this.sums);
  }
}

/** The efficiency statistics of scorecards read from any iterable. */
export async function efficiencyStatsOf(cards: AsyncIterable<EfficiencyOutcome> | Iterable<EfficiencyOutcome>): Promise<EfficiencyStats> {
  const builder = new EfficiencyStatsBuilder();
  for await (const card of cards) builder.add(card);
  return builder.result();
}
