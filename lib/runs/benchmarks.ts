import { randomBytes } from 'node:crypto';
import {
  BenchmarkCreateSchema,
  TERMINAL_RUN_STATUSES,
  type Benchmark,
  type BenchmarkCreate,
  type BenchmarkRun,
  type BenchmarkRunStatus,
  type BenchmarkTask,
  type BenchmarkTaskState,
  type GraphTask,
  organizationOf,
  type Run,
  type TargetSystem,
} from '../domain/index.js';
import { benchmarkLeaderboard, type LeaderboardTaskRun } from '../compare/index.js';
import { NotFoundError, PreconditionFailedError, type Clock, type Stores } from '../ports/index.js';
import { scopedStores } from '../tenancy/index.js';
import type { ConfigProblem } from './checkRunConfig.js';
import { RunConfigurationError } from './checkRunConfig.js';
import { createRun, UnknownReferenceError } from './createRun.js';
import { scoredCaseOutcomesOf } from './runCaseOutcomes.js';
import type { FinishedTask } from './benchmarkSchedule.js';

export interface BenchmarkDeps {
  stores: Stores;
  clock: Clock;
}

/** A task's outcome as the orchestrator records it (see `settleBenchmarkTask`). */
export type BenchmarkTaskOutcome = FinishedTask;

const shortId = (): string => randomBytes(6).toString('hex');

/**
 * Validates and stores a benchmark: the schema (duplicate ids, unknown dependencies, a cycle named as
 * `tasks: cycle a -> b -> a`) and every reference (suite, target, client, published suite version), an unknown one
 * refused with UnknownReferenceError naming `tasks.<i>.<field>` (422).
 */
export async function createBenchmark(input: BenchmarkCreate, deps: BenchmarkDeps & { createdBy: string }): Promise<Benchmark> {
  const settings = BenchmarkCreateSchema.parse(input);
  const { stores } = deps;
  for (const [i, t] of settings.tasks.entries()) {
    const client = t.client_id ? await stores.clients.get(t.client_id) : undefined;
    if (t.client_id && !client) throw new UnknownReferenceError(`tasks.${i}.client_id`, t.client_id);
    const suiteId = t.suite_id ?? client!.suite_ids[0]!;
    if (!(await stores.suites.get(suiteId))) throw new UnknownReferenceError(`tasks.${i}.suite_id`, suiteId);
    const targetId = t.target_id ?? client!.target_id;
    if (!(await stores.targets.get(targetId))) throw new UnknownReferenceError(`tasks.${i}.target_id`, targetId);
    if (typeof t.suite_version === 'number' && !(await stores.suiteVersions.getVersion(suiteId, t.suite_version)))
      throw new UnknownReferenceError(`tasks.${i}.suite_version`, `${suiteId}@${t.suite_version}`);
  }
  const benchmark: Benchmark = {
    ...settings,
    id: `bench-${shortId()}`,
    created_by: deps.createdBy,
    created_at: deps.clock.now().toISOString(),
  };
  const { _etag, ...stored } = await stores.benchmarks.create(benchmark);
  return stored;
}

const pendingState = (task_id: string): BenchmarkTaskState => ({
  task_id,
  status: 'pending',
  run_id: null,
  run_status: null,
  scored: null,
  passed: null,
  pass_rate: null,
  reason: null,
  started_at: null,
  finished_at: null,
});

/**
 * Starts a benchmark run: stores it (`running`, every task pending, the definition as it is now) and hands its id to
 * `startOrchestration` (the `runBenchmark` orchestration, instance id = benchmark run id). A failure to start marks
 * the benchmark run failed with the reason and rethrows.
 */
export async function startBenchmarkRun(
  benchmarkId: string,
  deps: BenchmarkDeps & { createdBy: string; startOrchestration: (benchmarkRunId: string) => Promise<void> },
): Promise<BenchmarkRun> {
  const { stores, clock } = deps;
  const benchmark = await stores.benchmarks.get(benchmarkId);
  if (!benchmark) throw new NotFoundError('benchmark', benchmarkId);
  const { _etag, ...definition } = benchmark;
  const run: BenchmarkRun = {
    id: `bnr-${shortId()}`,
    benchmark_id: benchmarkId,
    definition,
    status: 'running',
    tasks: definition.tasks.map((t) => pendingState(t.id)),
    created_by: deps.createdBy,
    created_at: clock.now().toISOString(),
    completed_at: null,
    leaderboard: null,
    error: null,
  };
  const { _etag: _, ...stored } = await stores.benchmarkRuns.create(run);
  try {
    await deps.startOrchestration(run.id);
  } catch (err) {
    await updateBenchmarkRun(run.id, stores, (r) => ({
      ...r,
      status: 'failed',
      completed_at: clock.now().toISOString(),
      error: `could not start the orchestration: ${(err as Error).message}`,
    }));
    throw err;
  }
  return stored;
}

async function loadRun(id: string, stores: Stores) {
  const run = await stores.benchmarkRuns.get(id);
  if (!run) throw new NotFoundError('benchmark run', id);
  return run;
}

/** Read-modify-write of a benchmark run under its ETag, re-read and retried when someone else wrote in between. */
async function updateBenchmarkRun(id: string, stores: Stores, change: (run: BenchmarkRun) => BenchmarkRun): Promise<BenchmarkRun> {
  for (let attempt = 1; ; attempt++) {
    const { _etag, ...current } = await loadRun(id, stores);
    try {
      const { _etag: _, ...stored } = await stores.benchmarkRuns.replace(change(current), { ifMatch: _etag });
      return stored;
    } catch (err) {
      if (!(err instanceof PreconditionFailedError) || attempt >= 20) throw err;
    }
  }
}

const patchTask = (run: BenchmarkRun, taskId: string, patch: Partial<BenchmarkTaskState>): BenchmarkRun => ({
  ...run,
  tasks: run.tasks.map((t) => (t.task_id === taskId ? { ...t, ...patch } : t)),
});

const taskOf = (run: BenchmarkRun, taskId: string): BenchmarkTask => {
  const task = run.definition.tasks.find((t) => t.id === taskId);
  if (!task) throw new NotFoundError('benchmark task', `${run.id}/${taskId}`);
  return task;
};

/** The run id of a task: deterministic, so a retried start activity finds the run it created before. */
export const benchmarkTaskRunId = (benchmarkRunId: string, taskId: string): string => `${benchmarkRunId}.${taskId}`;

/** What the orchestrator schedules: the dependency graph and the parallelism limit. */
export async function planBenchmarkRun(
  benchmarkRunId: string,
  deps: Pick<BenchmarkDeps, 'stores'>,
): Promise<{ tasks: GraphTask[]; parallelism: number }> {
  const run = await loadRun(benchmarkRunId, deps.stores);
  return { tasks: run.definition.tasks.map((t) => ({ id: t.id, depends_on: t.depends_on })), parallelism: run.definition.parallelism };
}

/**
 * Creates the ordinary run of a task (id `<benchmark run>.<task>`, trigger metadata naming the benchmark, run and
 * task; idempotent: an existing run is reused) and records the task `running`. A task whose run cannot be created
 * (a reference gone since the benchmark was defined, a configuration `check` refuses) is recorded `failed` with the
 * reason, and `run_id` is null.
 */
export async function startBenchmarkTask(
  benchmarkRunId: string,
  taskId: string,
  deps: BenchmarkDeps & { check?: (run: Run, target: TargetSystem) => Promise<ConfigProblem[]> },
): Promise<{ run_id: string | null; reason: string | null }> {
  const { stores, clock } = deps;
  const benchmarkRun = await loadRun(benchmarkRunId, stores);
  const task = taskOf(benchmarkRun, taskId);
  const runId = benchmarkTaskRunId(benchmarkRunId, taskId);
  let run: Run | undefined = await stores.runs.getRun(runId);
  if (!run) {
    try {
      run = await createRun(
        {
          run_id: runId,
          ...(task.suite_id ? { suite_id: task.suite_id } : {}),
          ...(task.target_id ? { target_id: task.target_id } : {}),
          ...(task.client_id ? { client_id: task.client_id } : {}),
          suite_version: task.suite_version,
          triggered_by: 'api',
          trigger_metadata: { benchmark_id: benchmarkRun.benchmark_id, benchmark_run_id: benchmarkRunId, benchmark_task: taskId },
          ...(task.config ? { config: task.config } : {}),
        },
        // the orchestrator runs unscoped: the task's run is the benchmark's organization's, on that organization's suite and target
        { stores: scopedStores(stores, organizationOf(benchmarkRun)), clock, ...(deps.check ? { check: deps.check } : {}) },
      );
    } catch (err) {
      if (!(err instanceof UnknownReferenceError) && !(err instanceof RunConfigurationError)) throw err;
      const now = clock.now().toISOString();
      const reason = `its run could not be created: ${err.message}`;
      await updateBenchmarkRun(benchmarkRunId, stores, (r) =>
        patchTask(r, taskId, { status: 'failed', reason, started_at: now, finished_at: now }),
      );
      return { run_id: null, reason };
    }
  }
  const startedAt = clock.now().toISOString();
  const runStatus = run.status;
  await updateBenchmarkRun(benchmarkRunId, stores, (r) =>
    patchTask(r, taskId, { status: 'running', run_id: runId, run_status: runStatus, started_at: startedAt }),
  );
  return { run_id: runId, reason: null };
}

const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;

/**
 * Records how a task's run ended: `completed` when the run completed and the task's gate (if any) is met, else
 * `failed` with the reason (run failed / cancelled / timed out / degraded, its orchestration failed, or the pass rate
 * below the gate). A run still open after its orchestration failed is marked failed first.
 */
export async function settleBenchmarkTask(
  benchmarkRunId: string,
  taskId: string,
  deps: BenchmarkDeps & { orchestrationError?: string },
): Promise<BenchmarkTaskOutcome> {
  const { stores, clock } = deps;
  const benchmarkRun = await loadRun(benchmarkRunId, stores);
  const task = taskOf(benchmarkRun, taskId);
  const runId = benchmarkTaskRunId(benchmarkRunId, taskId);
  let run = await stores.runs.getRun(runId);
  if (!run) throw new NotFoundError('run', runId);
  if (deps.orchestrationError && !TERMINAL_RUN_STATUSES.has(run.status))
    run = (await stores.runs.updateRun(runId, { status: 'failed', error: deps.orchestrationError })) ?? run;
  const outcomes = [...(await scoredCaseOutcomesOf(runId, stores)).values()];
  const scored = outcomes.length;
  const passed = outcomes.filter((o) => o.passed === true).length;
  const passRate = scored > 0 ? passed / scored : null;
  let outcome: BenchmarkTaskOutcome;
  if (run.status !== 'completed')
    outcome = {
      status: 'failed',
      reason: `run ${runId} ${run.status}${run.error ? `: ${run.error}` : deps.orchestrationError ? `: ${deps.orchestrationError}` : ''}`,
    };
  else if (task.gate && (passRate === null || passRate < task.gate.min_pass_rate))
    outcome = {
      status: 'failed',
      reason:
        passRate === null
          ? `no case scored, the gate needs a pass rate of at least ${percent(task.gate.min_pass_rate)}`
          : `pass rate ${percent(passRate)} (${passed} of ${scored} scored) below the gate ${percent(task.gate.min_pass_rate)}`,
    };
  else outcome = { status: 'completed', reason: null };
  const finishedAt = clock.now().toISOString();
  await updateBenchmarkRun(benchmarkRunId, stores, (r) =>
    patchTask(r, taskId, {
      status: outcome.status,
      reason: outcome.reason,
      run_status: run.status,
      scored,
      passed,
      pass_rate: passRate,
      finished_at: finishedAt,
    }),
  );
  return outcome;
}

/** Records tasks skipped because a dependency did not succeed, each with its reason. */
export async function skipBenchmarkTasks(
  benchmarkRunId: string,
  skips: readonly { task_id: string; reason: string }[],
  deps: BenchmarkDeps,
): Promise<void> {
  const now = deps.clock.now().toISOString();
  await updateBenchmarkRun(benchmarkRunId, deps.stores, (r) =>
    skips.reduce((acc, s) => patchTask(acc, s.task_id, { status: 'skipped', reason: s.reason, finished_at: now }), r),
  );
}

/** `completed` when every task completed, `failed` when none did, else `partially_failed`. */
export function benchmarkRunStatusOf(tasks: readonly Pick<BenchmarkTaskState, 'status'>[]): BenchmarkRunStatus {
  const completed = tasks.filter((t) => t.status === 'completed').length;
  if (completed === tasks.length) return 'completed';
  return completed === 0 ? 'failed' : 'partially_failed';
}

/**
 * Ends a benchmark run: its status from the tasks' (`benchmarkRunStatusOf`) and the leaderboard over the
 * participants (a task's client, else its target) from the scored cases of every task whose run finished
 * (a task failed by its gate still measured its model; skipped tasks and runs that never finished are left out),
 * each case counted once per participant (`benchmarkLeaderboard`).
 * With `error` (the orchestration itself broke), the benchmark run is `failed` with it.
 */
export async function finalizeBenchmarkRun(benchmarkRunId: string, deps: BenchmarkDeps & { error?: string }): Promise<BenchmarkRun> {
  const { stores, clock } = deps;
  const benchmarkRun = await loadRun(benchmarkRunId, stores);
  const taskRuns: LeaderboardTaskRun[] = [];
  for (const state of benchmarkRun.tasks) {
    if (!state.run_id) continue;
    const run = await stores.runs.getRun(state.run_id);
    if (!run || !TERMINAL_RUN_STATUSES.has(run.status)) continue;
    const task = taskOf(benchmarkRun, state.task_id);
    taskRuns.push({
      participant: run.client_id ?? run.target_id,
      kind: run.client_id ? 'client' : 'target',
      target_id: run.target_id,
      task_id: task.id,
      run_id: run.id,
      completed_at: run.completed_at,
      outcomes: (await scoredCaseOutcomesOf(run.id, stores)).values(),
    });
  }
  const leaderboard = benchmarkLeaderboard(taskRuns);
  return updateBenchmarkRun(benchmarkRunId, stores, (r) => ({
    ...r,
    status: deps.error ? 'failed' : benchmarkRunStatusOf(r.tasks),
    completed_at: clock.now().toISOString(),
    leaderboard,
    error: deps.error ?? null,
  }));
}
