import { isScored } from '../domain/index.js';
import { RunningSummary } from '../statistics/index.js';
import { caseIdOf } from './runCases.js';
import type { RunCaseOutcome } from './runOutcomes.js';

/** One case's scored trials: how many, and how many passed. */
export interface CaseTrials {
  trials: number;
  passes: number;
}

/** What folding a run's cards into per-case trial means gives. */
export interface CaseTrialMeans {
  /** case id -> its scored trials (a case with no scored trial is absent: not scored) */
  cases: Map<string, CaseTrials>;
  /** cards left out: infrastructure faults (`outcomeKindOf` = not_scored) */
  notScored: number;
  /** cases whose trials all agree (pass fraction 0 or 1); equal to cases.size with one trial a case */
  binary: boolean;
}

/**
 * Folds a run's cards (every trial of every case, any order; scorecards or counted outcomes) into per-case trial
 * means: for each case, its scored trials and passes (infrastructure faults are not scored and left out of the mean;
 * a case with no scored trial is not scored at all). The unit comparisons and alerts work on (issue 11).
 */
export function caseTrialMeans(cards: Iterable<RunCaseOutcome>): CaseTrialMeans {
  const cases = new Map<string, CaseTrials>();
  let notScored = 0;
  for (const card of cards) {
    if (!isScored(card)) {
      notScored++;
      continue;
    }
    const id = caseIdOf(card);
    const entry = cases.get(id) ?? { trials: 0, passes: 0 };
    entry.trials++;
    if (card.overall_passed) entry.passes++;
    cases.set(id, entry);
  }
  let binary = true;
  for (const c of cases.values()) if (c.passes !== 0 && c.passes !== c.trials) binary = false;
  return { cases, notScored, binary };
}

/** The per-case pass fractions' running summary (for `meanRate`). */
export function fractionSummary(means: CaseTrialMeans): RunningSummary {
  const summary = new RunningSummary();
  for (const c of means.cases.values()) summary.add(c.passes / c.trials);
  return summary;
}
