import type { Run, RunStats } from '../domain/index.js';
import { NotFoundError, type Clock, type QueuePort, type Stores } from '../ports/index.js';
import { checkLatencySlos, checkRunRegressions, modelVersionNote, queueRunEmails } from '../alerts/index.js';
import { emptyTriggerResult, modelVersionTriggers, triggerOf } from './triggers/index.js';
import { announceRunCompleted } from './runCompletedEvents.js';

export type RunOutcome = 'completed' | 'cancelled' | 'timed_out';

export interface FinalizedRun {
  run_id: string;
  status: Run['status'];
  stats: RunStats;
  /** ids of the regression alerts raised or confirmed against the baseline (none for a cancelled run) */
  alert_ids: string[];
}

/**
 * Closes a run: takes its live statistics (an exact fold, equal to a recount by construction and by test) and
 * recounts them from the stored scorecards only when they do not account for every case (a deadline, a cancel,
 * or a feed that has not caught up); compares the run with its baseline and records regression alerts (not for
 * a cancelled run); sets the final status and time, and notes model-version changes seen in the results (within
 * the run, and against the baseline on the same target). Alerts are written before the status, so whoever sees
 * the run finished also sees its alerts. A run whose deadline passed with every case in is `completed`, not
 * `timed_out`; one with more than `config.max_not_scored_share` of its cases not scored, or with cases the
 * organization's spent budget left unjudged (budget_exhausted, with a note saying so), is `degraded`. Idempotent. (A 400,000-case recount costs ~20 s, so it is not paid on every run.)
 */
export async function finalizeRun(
  runId: string,
  outcome: RunOutcome,
  deps: { stores: Stores; clock: Clock; queue: QueuePort; emailRunFinished?: boolean },
): Promise<FinalizedRun> {
  const { stores, clock } = deps;
  const run = await stores.runs.getRun(runId);
  if (!run) throw new NotFoundError('run', runId);
  const live = await stores.runStats.getRunStats(runId);
  const stats = live && live.completed >= run.total_cases ? live : await stores.runStats.recomputeRunStats(runId, run.total_cases);
  const allIn = stats.completed >= run.total_cases;
  const status: Run['status'] =
    outcome === 'cancelled' ? 'cancelled' : allIn ? finishedStatus(stats, run.config.max_not_scored_share) : outcome;
  const notes = [...run.notes];
  if (stats.client_versions.length > 1) {
    const note = `model version changed during the run: ${stats.client_versions.join(', ')}`;
    if (!notes.includes(note)) notes.push(note);
  }
  const regression =
    status === 'cancelled' || run.status === 'cancelled' ? undefined : await checkRunRegressions(run, { live: false }, deps);
  // latency SLOs: checked on the finished run alone (no baseline), alerts when violated with enough cases
  const slo = status === 'cancelled' || run.status === 'cancelled' ? undefined : await checkLatencySlos(run, deps);
  if (regression?.baseline) {
    const baselineStats = await stores.runStats.getRunStats(regression.baseline.id);
    const note = modelVersionNote(run, regression.baseline, baselineStats?.client_versions ?? [], stats.client_versions);
    if (note && !notes.includes(note)) notes.push(note);
    if (note && status !== 'cancelled') {
      // the client may re-evaluate on a model version change (runs created pending; the trigger timer starts them)
      const fired = emptyTriggerResult();
      try {
        await modelVersionTriggers(run, { from: baselineStats?.client_versions ?? [], to: stats.client_versions }, deps, fired);
      } catch (err) {
        fired.skipped.push({ trigger: 'model_version_change', client_id: run.client_id ?? '', reason: (err as Error).message });
      }
      for (const skip of fired.skipped) notes.push(`model version trigger: ${skip.reason}`);
      const created = await createdTriggerRuns(run, stores);
      if (created.length > 0) {
        const line = `model version trigger: re-evaluation ${created.join(', ')}`;
        if (!notes.includes(line)) notes.push(line);
      }
    }
  }
  if (status === 'degraded') {
    const note = degradedNote(stats, run.config.max_not_scored_share);
    if (!notes.includes(note)) notes.push(note);
  }
  const unbudgeted = budgetSkipped(stats);
  if (unbudgeted > 0 && status === 'degraded') {
    const note = `degraded: the organization's monthly budget was spent; ${unbudgeted} case${unbudgeted === 1 ? '' : 's'} not scored (stage 4 did not call the judge: error code budget_exhausted)`;
    if (!notes.includes(note)) notes.push(note);
  }
  const invalid = invalidCases(stats);
  if (invalid > 0) {
    const note = `${invalid} invalid case${invalid === 1 ? '' : 's'} not scored: the gold calls do not replay on the initial state (error code invalid_case; fix the gold)`;
    if (!notes.includes(note)) notes.push(note);
  }
  if (status === 'timed_out') notes.push(`deadline ${run.deadline_at} passed with ${stats.completed} of ${run.total_cases} cases scored`);
  const updated = await stores.runs.updateRun(
    runId,
    { status, completed_at: run.completed_at ?? clock.now().toISOString(), notes },
    { from: ['pending', 'running', 'stalled', 'cancelled'] },
  );
  const final = updated ?? (await stores.runs.getRun(runId)) ?? run;
  // after the status is stored: whoever reads the message sees the run finished (a retried finalize sends a duplicate, dropped)
  await announceRunCompleted(final, deps.queue);
  // the client's e-mail addresses hear about the finished run (EVALP_EMAIL_RUN_FINISHED=false: alerts only)
  if (updated && run.client_id && deps.emailRunFinished !== false) await queueRunEmails(run, await stores.clients.get(run.client_id), deps);
  return {
    run_id: runId,
    status: final.status,
    stats,
    alert_ids: [...(regression?.alerts ?? []), ...(slo?.alerts ?? [])].map((a) => a.id),
  };
}

/** The model-version re-evaluation runs a run's results started (their trigger names it as `seen_on_run`). */
async function createdTriggerRuns(run: Run, stores: Stores): Promise<string[]> {
  if (!run.client_id) return [];
  const page = await stores.runs.listRuns({ client_id: run.client_id, status: 'pending' }, { limit: 100 });
  return page.items
    .filter((r) => triggerOf(r) === 'model_version_change' && r.trigger_metadata['seen_on_run'] === run.id)
    .map((r) => r.id)
    .sort();
}

/**
 * `degraded` when more than `maxShare` of the cases were not scored for infrastructure failures, else `completed`.
 * Invalid cases (`invalid_case`: a stateful case whose gold does not replay) are not scored either, but they are the
 * gold set's problem, not the platform's: they never degrade a run (a note counts them).
 */
export function finishedStatus(
  stats: Pick<RunStats, 'completed' | 'not_scored'> & { error_codes?: Record<string, number> },
  maxShare: number,
): 'completed' | 'degraded' {
  const infrastructure = stats.not_scored - invalidCases(stats);
  // a run the budget stopped is degraded whatever the share: its judge stopped being called
  if (budgetSkipped(stats) > 0) return 'degraded';
  return stats.completed > 0 && infrastructure / stats.completed > maxShare ? 'degraded' : 'completed';
}

/** Cases stage 4 left unscored because the organization's budget was spent (error code budget_exhausted). */
function budgetSkipped(stats: { error_codes?: Record<string, number> }): number {
  return stats.error_codes?.['budget_exhausted'] ?? 0;
}

function invalidCases(stats: { error_codes?: Record<string, number> }): number {
  return stats.error_codes?.['invalid_case'] ?? 0;
}

function degradedNote(stats: RunStats, maxShare: number): string {
  const share = (x: number) => `${(x * 100).toFixed(1)}%`;
  return `degraded: ${stats.not_scored} of ${stats.completed} cases not scored (infrastructure-failure rate ${share(stats.not_scored / stats.completed)} > ${share(maxShare)}); the pass rate covers the ${stats.scored} scored cases`;
}
