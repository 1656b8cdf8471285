import { TERMINAL_RUN_STATUSES, type Run } from '../../domain/index.js';
import type { Clock, Stores } from '../../ports/index.js';
import { COMPAT_SOURCE } from './compatJob.js';

const DAY_MS = 86_400_000;

/** Days after which finished /api/evaluate jobs are cleaned up when EVALP_EVALUATE_JOB_RETENTION_DAYS is not set. */
export const DEFAULT_EVALUATE_JOB_RETENTION_DAYS = 30;

export interface JobCleanupReport {
  /** jobs deleted by this pass */
  cleaned: string[];
  /** targets deleted with them (no remaining job uses them) */
  targets_deleted: string[];
}

/**
 * Deletes /api/evaluate jobs finished more than `days` ago: per job, first a `cleanedJobs` record (so GET answers
 * 410 from then on), then its scorecards (in batches), statistics, shards, test cases, suite and run, and its target
 * when no other run uses it. Every step is idempotent and the run is deleted last, so a pass killed mid-way leaves
 * the job found again (its run is still there) and finished by the next pass. Other runs are never touched.
 */
export async function cleanUpEvaluateJobs(
  deps: { stores: Stores; clock: Clock },
  options: { days: number; maxJobs?: number },
): Promise<JobCleanupReport> {
  const { stores, clock } = deps;
  const now = clock.now();
  const report: JobCleanupReport = { cleaned: [], targets_deleted: [] };
  const cutoff = now.getTime() - options.days * DAY_MS;
  const maxJobs = options.maxJobs ?? 100;
  const due: Run[] = [];
  for (let offset = 0; due.length < maxJobs;) {
    const page = await stores.runs.listRuns({ created_before: new Date(cutoff).toISOString() }, { offset, limit: 200 });
    for (const run of page.items)
      if (
        run.trigger_metadata.source === COMPAT_SOURCE &&
        TERMINAL_RUN_STATUSES.has(run.status) &&
        Date.parse(run.completed_at ?? run.created_at) <= cutoff &&
        due.length < maxJobs
      )
        due.push(run);
    if (!page.has_more || page.items.length === 0) break;
    offset += page.items.length;
  }
  for (const run of due) {
    if (!(await stores.cleanedJobs.get(run.id)))
      await stores.cleanedJobs.upsert({
        id: run.id,
        submitted_at: run.created_at,
        completed_at: run.completed_at,
        cleaned_at: now.toISOString(),
        retention_days: options.days,
      });
    while ((await stores.scorecards.deleteScorecards(run.id)) > 0);
    await stores.runStats.deleteRunStats(run.id);
    const suite = await stores.suites.get(run.suite_id);
    if (suite?.owner?.kind === 'evaluate-job' && suite.owner.id === run.id) {
      // the job's own questions only (`<job>-q<n>`), never a gold-set case someone listed
      for (const id of suite.test_case_ids) if (id.startsWith(`${run.id}-q`)) await stores.testCases.deleteTestCase(id);
      await stores.suites.delete(suite.id);
    }
    await stores.runs.deleteRun(run.id);
    const target = await stores.targets.get(run.target_id);
    if (target?.owner?.kind === 'evaluate-job' && (await stores.runs.listRuns({ target_id: target.id }, { limit: 1 })).total === 0) {
      await stores.targets.delete(target.id);
      report.targets_deleted.push(target.id);
    }
    report.cleaned.push(run.id);
  }
  return report;
}
