import type { Alert, Run } from '../domain/index.js';
import type { Clock, QueuePort, Stores } from '../ports/index.js';
import { detectRegressions } from './detectRegressions.js';
import { evidenceFrom } from './evidenceFrom.js';
import { judgedOnCriteria, runOutcomes, scoredOutcomes } from '../compare/index.js';
import { pairOutcomes } from './pairedOutcomes.js';
import { recordAlerts } from './recordAlerts.js';
import type { RegressionEvidence } from './regressionEvidence.js';
import { selectBaseline } from './selectBaseline.js';
import { onlyCases, sameContentCaseIds } from './sameContentCases.js';
import { resolveThresholds } from './thresholds.js';

export interface RegressionCheckDeps {
  stores: Stores;
  queue: QueuePort;
  clock: Clock;
}

export interface RegressionCheckOptions {
  /** true from the change feed (the run is still going), false when it has finished */
  live: boolean;
  /** fewer paired cases than this: nothing is decided (default 1; live checks pass 200) */
  minPairedCases?: number;
  /**
   * Where the run's own cases are read: 'scorecards' (default: the record of truth) or 'statistics' (the
   * statistics store's compact outcomes, ~2x cheaper at 400k; only as current as the statistics, so for callers
   * that have just folded the run's cards: the change feed's live checks). The baseline is always read from its
   * statistics when the store has them.
   */
  currentSource?: 'scorecards' | 'statistics';
}

export interface RegressionCheck {
  run_id: string;
  /** null: no baseline, so nothing can regress */
  baseline: Run | null;
  evidence: RegressionEvidence | null;
  /** the alerts this check raised or confirmed */
  alerts: Alert[];
}

/**
 * Compares a run with its baseline (`selectBaseline`) on the cases both scored, under its client's thresholds,
 * and records what passes both threshold and significance (`detectRegressions`, `recordAlerts`). A run
 * without a baseline raises nothing. Idempotent: the alerts are keyed (run, metric) and notified once per severity.
 */
export async function checkRunRegressions(run: Run, options: RegressionCheckOptions, deps: RegressionCheckDeps): Promise<RegressionCheck> {
  const baseline = await selectBaseline(run, deps.stores);
  if (!baseline) return { run_id: run.id, baseline: null, evidence: null, alerts: [] };
  // pairing indexes the baseline by case id, so its order changes nothing: read it in the store's cheapest order
  // not-scored cases (infrastructure failures) are never paired: an outage is not a regression
  // a baseline judged on rubric criteria is read from its scorecards: counted outcomes carry no criterion scores
  const baselineCases = scoredOutcomes(
    judgedOnCriteria(baseline)
      ? deps.stores.scorecards.iterateScorecards(baseline.id)
      : await runOutcomes(deps.stores, baseline.id, { order: 'any' }),
  );
  const currentCases = scoredOutcomes(
    options.currentSource === 'statistics' ? await runOutcomes(deps.stores, run.id) : deps.stores.scorecards.iterateScorecards(run.id),
  );
  // runs on different suite versions: only the cases with equal content hashes are paired (lib/compare versionPairing)
  const same = await sameContentCaseIds(run, baseline, deps.stores);
  const paired = await pairOutcomes(onlyCases(baselineCases, same), onlyCases(currentCases, same));
  if (paired.n < (options.minPairedCases ?? 1)) return { run_id: run.id, baseline, evidence: null, alerts: [] };
  const client = run.client_id ? ((await deps.stores.clients.get(run.client_id)) ?? null) : null;
  const evidence = evidenceFrom(paired);
  const candidates = detectRegressions(evidence, resolveThresholds(client));
  const alerts = await recordAlerts({ run, baseline, client, candidates, live: options.live }, deps);
  return { run_id: run.id, baseline, evidence, alerts };
}
