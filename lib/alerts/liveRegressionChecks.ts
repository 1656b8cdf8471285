import type { RunStats } from '../domain/index.js';
import { checkRunRegressions, type RegressionCheck, type RegressionCheckDeps } from './checkRunRegressions.js';

/** "Enough" for a live check: at least this many cases scored (and paired with the baseline) ... */
export const LIVE_MIN_PAIRED_CASES = 200;
/** ... and at least this share of the run done; then once per further quarter (25%, 50%, 75%). */
export const LIVE_STEP_PCT = 25;

/**
 * The live check a run's statistics call for: the progress quarter (1 at 25%, 2 at 50%, 3 at 75%) once at
 * least LIVE_MIN_PAIRED_CASES are scored; undefined before that and at 100% (the finished run is checked by
 * finalizeRun).
 */
export function liveCheckStep(stats: Pick<RunStats, 'completed' | 'progress_pct'>): number | undefined {
  if (stats.completed < LIVE_MIN_PAIRED_CASES || stats.progress_pct >= 100) return undefined;
  const step = Math.floor(stats.progress_pct / LIVE_STEP_PCT);
  return step >= 1 ? step : undefined;
}

export interface LiveCheckResult {
  checks: RegressionCheck[];
  /** runs whose check failed, with the reason (the feed goes on; the final check at the run's end repeats it) */
  failed: Array<{ run_id: string; error: string }>;
}

/**
 * The change-feed side of regression alerts: for each run in the batch's statistics that reached a new progress
 * quarter with enough cases, one live check (claimed per run and quarter in the alert store, so redelivered
 * batches, other instances and restarts do not recompute it: at most three live checks per run). Runs that are
 * no longer running are left to finalizeRun. Never throws for one run's failure. Both runs are read from the
 * statistics store's compact outcomes (`iterateOutcomes`), not their scorecards.
 */
export async function liveRegressionChecks(stats: readonly RunStats[], deps: RegressionCheckDeps): Promise<LiveCheckResult> {
  const result: LiveCheckResult = { checks: [], failed: [] };
  for (const s of stats) {
    const step = liveCheckStep(s);
    if (step === undefined) continue;
    try {
      const run = await deps.stores.runs.getRun(s.run_id);
      if (!run || run.status !== 'running') continue;
      if (!(await deps.stores.alerts.claimLiveCheck(run.id, step))) continue;
      // the batch was just folded, so the statistics' outcomes are as current as the figures that triggered this
      result.checks.push(
        await checkRunRegressions(run, { live: true, minPairedCases: LIVE_MIN_PAIRED_CASES, currentSource: 'statistics' }, deps),
      );
    } catch (err) {
      result.failed.push({ run_id: s.run_id, error: (err as Error).message });
    }
  }
  return result;
}
