import { topologicalOrder, type GraphTask } from '../domain/index.js';

/** How a finished task ended, as the scheduler sees it. */
export interface FinishedTask {
  status: 'completed' | 'failed' | 'skipped';
  reason: string | null;
}

/** The scheduler's view of a benchmark run: tasks running now and tasks finished (completed, failed, skipped). */
export interface BenchmarkScheduleState {
  running: ReadonlySet<string>;
  finished: ReadonlyMap<string, FinishedTask>;
}

/** What to do next: tasks to skip (with the reason) and tasks to start now. */
export interface BenchmarkStep {
  skip: { task_id: string; reason: string }[];
  start: string[];
}

/**
 * The next step of a benchmark run, purely from its state (so the orchestrator's replay takes the same decisions):
 * every waiting task with a dependency that failed or was skipped is skipped, naming that dependency (transitively,
 * in one step); then waiting tasks whose dependencies all completed start, in dependency order (ties in definition
 * order), while fewer than `parallelism` run. An empty step with nothing running means the run is over.
 */
export function nextBenchmarkStep(tasks: readonly GraphTask[], state: BenchmarkScheduleState, parallelism: number): BenchmarkStep {
  const finished = new Map(state.finished);
  const skip: BenchmarkStep['skip'] = [];
  const start: string[] = [];
  let free = parallelism - state.running.size;
  for (const task of topologicalOrder(tasks)) {
    if (finished.has(task.id) || state.running.has(task.id)) continue;
    const blocked = task.depends_on.find((d) => {
      const f = finished.get(d);
      return f !== undefined && f.status !== 'completed';
    });
    if (blocked !== undefined) {
      const dep = finished.get(blocked)!;
      const reason =
        dep.status === 'skipped'
          ? `dependency "${blocked}" was skipped`
          : `dependency "${blocked}" failed${dep.reason ? `: ${dep.reason}` : ''}`;
      skip.push({ task_id: task.id, reason });
      finished.set(task.id, { status: 'skipped', reason });
      continue;
    }
    if (free > 0 && task.depends_on.every((d) => finished.get(d)?.status === 'completed')) {
      start.push(task.id);
      free--;
    }
  }
  return { skip, start };
}
