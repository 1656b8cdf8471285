import { trialsOf, type Run, type RunSample } from '../domain/index.js';
import { NotFoundError, type Clock, type Stores } from '../ports/index.js';
import { drawSample, type SampleCandidate } from './sampleCases.js';
import { runCaseBodies, suiteCaseIdsOf } from './suiteCases.js';
import { newCaseRunIds, triggerOf } from './triggers/index.js';

export const DEFAULT_SHARD_SIZE = 5_000;
const METADATA_CHUNK = 2_000;

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
  const { ids, sample } = await sampledCaseIds(run, stores);
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
      ...(sample ? { sample } : {}),
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

/** The run's case ids, drawn from the population by its config's `sample` when it has one (recorded on the run). */
async function sampledCaseIds(run: Run, stores: Stores): Promise<{ ids: string[]; sample?: RunSample }> {
  const ids = await resolveCaseIds(run, stores);
  const spec = run.config.sample;
  if (!spec || run.parent_run_id) return { ids };
  if (spec.method !== 'stratified')
    return drawSample(
      ids.map((id) => ({ id })),
      spec,
    );
  // stratified: only the metadata of each case is kept (bodies read a chunk at a time)
  const population: SampleCandidate[] = [];
  for (let i = 0; i < ids.length; i += METADATA_CHUNK) {
    for (const tc of await runCaseBodies(run, ids.slice(i, i + METADATA_CHUNK), stores)) {
      const { category, complexity_level, tags } = tc.metadata;
      population.push({ id: tc.id, metadata: { ...(category !== undefined ? { category } : {}), complexity_level, tags } });
    }
  }
  return drawSample(population, spec);
}

async function resolveCaseIds(run: Run, stores: Stores): Promise<string[]> {
  if (run.parent_run_id) {
    const failed: string[] = [];
    for await (const card of stores.scorecards.iterateScorecards(run.parent_run_id))
      if (!card.overall_passed) failed.push(card.test_case_id);
    return [...new Set(failed)].sort(); // a case that failed in several trials is retried once (with the run's trials)
  }
  if (triggerOf(run) === 'new_cases') return newCaseRunIds(run, stores); // just the cases its trigger saw added
  return suiteCaseIdsOf(run, stores);
}
