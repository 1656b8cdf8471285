import { type Efficiency, type EfficiencyStats, isScored, type OutcomeFacts } from '../domain/index.js';

/** What efficiency statistics read of a scorecard. */
export interface EfficiencyOutcome extends OutcomeFacts {
  efficiency?: Efficiency | undefined;
}

/**
 * Folds a run's scorecards into its efficiency statistics: over the scored cases that carry an efficiency (not-scored
 * cases never count), the mean efficiency score, calls made, needed and redundant, the cases with a redundant call,
 * mean model turns and mean tokens. O(1) memory.
 */
export class EfficiencyStatsBuilder {
  private cases = 0;
  private scoreSum = 0;
  private made = 0;
  private needed = 0;
  private redundant = 0;
  private withRedundant = 0;
  private modelTurns = 0;
  private tokens = 0;

  add(card: EfficiencyOutcome): void {
    const e = card.efficiency;
    if (!e || !isScored(card)) return;
    this.cases++;
    this.scoreSum += e.score;
    this.made += e.calls_made;
    this.needed += e.calls_needed;
    this.redundant += e.redundant_calls;
    if (e.redundant_calls > 0) this.withRedundant++;
    this.modelTurns += e.model_turns;
    this.tokens += e.tokens;
  }

  result(): EfficiencyStats {
    const mean = (sum: number) => (this.cases ? Math.round((sum / this.cases) * 1e6) / 1e6 : null);
    return {
      cases: this.cases,
      mean_score: mean(this.scoreSum),
      calls_made: this.made,
      calls_needed: this.needed,
      redundant_calls: this.redundant,
      cases_with_redundant_calls: this.withRedundant,
      mean_model_turns: mean(this.modelTurns),
      mean_tokens: mean(this.tokens),
    };
  }
}

/** The efficiency statistics of scorecards read from any iterable. */
export async function efficiencyStatsOf(cards: AsyncIterable<EfficiencyOutcome> | Iterable<EfficiencyOutcome>): Promise<EfficiencyStats> {
  const builder = new EfficiencyStatsBuilder();
  for await (const card of cards) builder.add(card);
  return builder.result();
}
