import { trialsOf, type Run } from '../domain/index.js';
import { NotFoundError, type Clock, type Stores } from '../ports/index.js';

export const DEFAULT_SHARD_SIZE = 5_000;

export interface RunPlan {
  run_id: string;
  total: number;
  shard_count: number;
  deadline_at: string;
  /** the run was already past planning (activity retried or run cancelled): nothing was changed */
  already_planned: boolean;
}

/**
 * Freezes a run's case list: resolves the suite now (a static id list, a dynamic filter, or the failed cases of
 * the parent run for retry-failures), splits it into shards of `shardSize` ids stored outside orchestration
 * history, and moves the run to `running`. Idempotent: a retried activity finds the plan and returns it.
 */
export async function planRun(
  runId: string,
  deps: { stores: Stores; clock: Clock },
  options: { shardSize?: number } = {},
): Promise<RunPlan> {
  const { stores, clock } = deps;
  const run = await stores.runs.getRun(runId);
  if (!run) throw new NotFoundError('run', runId);
  if (run.status !== 'pending') {
    return { run_id: runId, total: run.total_cases, shard_count: run.shard_count, deadline_at: run.deadline_at, already_planned: true };
  }
  const ids = await resolveCaseIds(run, stores);
  const size = options.shardSize ?? DEFAULT_SHARD_SIZE;
  const shards: string[][] = [];
  for (let i = 0; i < ids.length; i += size) shards.push(ids.slice(i, i + size));
  await stores.runs.putShards(runId, shards);
  const updated = await stores.runs.updateRun(
    runId,
    // total_cases counts scorecards: one per case and trial
    {
      status: 'running',
      total_cases: ids.length * trialsOf(run.config),
      shard_count: shards.length,
      started_at: clock.now().toISOString(),
    },
    { from: ['pending'] },
  );
  const current = updated ?? (await stores.runs.getRun(runId))!;
  return {
    run_id: runId,
    total: current.total_cases,
    shard_count: current.shard_count,
    deadline_at: current.deadline_at,
    already_planned: !updated,
  };
}

async function resolveCaseIds(run: Run, stores: Stores): Promise<string[]> {
  if (run.parent_run_id) {
    const failed: string[] = [];
    for await (const card of stores.scorecards.iterateScorecards(run.parent_run_id))
      if (!card.overall_passed) failed.push(card.test_case_id);
    return [...new Set(failed)].sort(); // a case that failed in several trials is retried once (with the run's trials)
  }
  const suite = await stores.suites.get(run.suite_id);
  if (!suite) throw new NotFoundError('test suite', run.suite_id);
  if (suite.kind === 'static') {
    const unique = [...new Set(suite.test_case_ids)];
    const existing: string[] = [];
    for (let i = 0; i < unique.length; i += 500) {
      const found = await stores.testCases.getTestCases(unique.slice(i, i + 500));
      for (const tc of found) existing.push(tc.id);
    }
    return existing;
  }
  const ids: string[] = [];
  for await (const id of stores.testCases.listTestCaseIds(suite.filter)) ids.push(id);
  return ids;
}
