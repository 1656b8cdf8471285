import type { Alert, Run } from '../domain/index.js';
import type { Clock, QueuePort, Stores } from '../ports/index.js';
import { detectRegressions } from './detectRegressions.js';
import { evidenceFrom } from './evidenceFrom.js';
import { loadPairedOutcomes } from './pairedOutcomes.js';
import { recordAlerts } from './recordAlerts.js';
import type { RegressionEvidence } from './regressionEvidence.js';
import { selectBaseline } from './selectBaseline.js';
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
  const paired = await loadPairedOutcomes(deps.stores.scorecards, baseline.id, run.id);
  if (paired.n < (options.minPairedCases ?? 1)) return { run_id: run.id, baseline, evidence: null, alerts: [] };
  const client = run.client_id ? ((await deps.stores.clients.get(run.client_id)) ?? null) : null;
  const evidence = evidenceFrom(paired);
  const candidates = detectRegressions(evidence, resolveThresholds(client));
  const alerts = await recordAlerts({ run, baseline, client, candidates, live: options.live }, deps);
  return { run_id: run.id, baseline, evidence, alerts };
}
