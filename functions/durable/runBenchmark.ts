import * as df from 'durable-functions';
import type { ActivityHandler, OrchestrationContext, OrchestrationHandler, Task } from 'durable-functions';
import { z } from 'zod';
import type { GraphTask } from '../../lib/domain/index.js';
import { getServices } from '../../lib/app/index.js';
import {
  ACTIVITY_FINALIZE_BENCHMARK_RUN,
  ACTIVITY_PLAN_BENCHMARK_RUN,
  ACTIVITY_SETTLE_BENCHMARK_TASK,
  ACTIVITY_SKIP_BENCHMARK_TASKS,
  ACTIVITY_START_BENCHMARK_TASK,
  type BenchmarkTaskOutcome,
  checkRunConfig,
  finalizeBenchmarkRun,
  type FinishedTask,
  nextBenchmarkStep,
  ORCHESTRATOR_RUN_BENCHMARK,
  ORCHESTRATOR_RUN_EVALUATION,
  planBenchmarkRun,
  runOrchestrationInput,
  settleBenchmarkTask,
  skipBenchmarkTasks,
  startBenchmarkTask,
} from '../../lib/runs/index.js';

const InputSchema = z.object({ benchmark_run_id: z.string().min(1) });
const TaskInputSchema = InputSchema.extend({ task_id: z.string().min(1) });
const SettleInputSchema = TaskInputSchema.extend({ orchestration_error: z.string().optional() });
const SkipInputSchema = InputSchema.extend({ skips: z.array(z.object({ task_id: z.string(), reason: z.string() })) });
const FinalizeInputSchema = InputSchema.extend({ error: z.string().optional() });

const retry = new df.RetryOptions(2_000, 5);
retry.backoffCoefficient = 2;

/**
 * One benchmark run (instance id = benchmark run id): plan (the task graph and parallelism), then repeatedly skip
 * the tasks whose dependency failed and start the ready ones (lib/runs nextBenchmarkStep, a pure function, so replay
 * decides alike) — each as an ordinary run created by an activity and evaluated by `runEvaluation` as a
 * sub-orchestration with instance id = run id (so RunCompleted and Cancel reach it as for any run) — at most
 * `parallelism` at once; settle each when it ends (run status, gate), and finalize with the leaderboard.
 */
const runBenchmark: OrchestrationHandler = function* (context: OrchestrationContext) {
  const { benchmark_run_id } = InputSchema.parse(context.df.getInput());
  try {
    const plan = (yield context.df.callActivityWithRetry(ACTIVITY_PLAN_BENCHMARK_RUN, retry, { benchmark_run_id })) as {
      tasks: GraphTask[];
      parallelism: number;
    };
    const finished = new Map<string, FinishedTask>();
    const running = new Map<string, Task>();
    for (;;) {
      const step = nextBenchmarkStep(plan.tasks, { running: new Set(running.keys()), finished }, plan.parallelism);
      if (step.skip.length > 0) {
        yield context.df.callActivityWithRetry(ACTIVITY_SKIP_BENCHMARK_TASKS, retry, { benchmark_run_id, skips: step.skip });
        for (const s of step.skip) finished.set(s.task_id, { status: 'skipped', reason: s.reason });
      }
      for (const task_id of step.start) {
        const started = (yield context.df.callActivityWithRetry(ACTIVITY_START_BENCHMARK_TASK, retry, { benchmark_run_id, task_id })) as {
          run_id: string | null;
          reason: string | null;
          input?: unknown;
        };
        if (started.run_id === null) finished.set(task_id, { status: 'failed', reason: started.reason });
        else running.set(task_id, context.df.callSubOrchestrator(ORCHESTRATOR_RUN_EVALUATION, started.input, started.run_id));
      }
      context.df.setCustomStatus({ running: [...running.keys()], finished: finished.size, total: plan.tasks.length });
      if (running.size === 0) {
        if (step.skip.length > 0 || step.start.length > 0) continue; // a start that failed may unblock skips
        break;
      }
      // a child that completed while another task was being settled is taken as is: a Task.any over an already
      // completed task would never resume (the SDK notifies only the compound task built before it completed)
      let doneId = [...running].find(([, t]) => t.isCompleted)?.[0];
      if (doneId === undefined) {
        const winner = (yield context.df.Task.any([...running.values()])) as Task;
        doneId = [...running].find(([, t]) => t === winner)![0];
      }
      const done = running.get(doneId)!;
      running.delete(doneId);
      const error = done.isFaulted ? String((done.result as Error | undefined)?.message ?? done.result) : undefined;
      const outcome = (yield context.df.callActivityWithRetry(ACTIVITY_SETTLE_BENCHMARK_TASK, retry, {
        benchmark_run_id,
        task_id: doneId,
        ...(error ? { orchestration_error: error } : {}),
      })) as BenchmarkTaskOutcome;
      finished.set(doneId, outcome);
    }
    return (yield context.df.callActivityWithRetry(ACTIVITY_FINALIZE_BENCHMARK_RUN, retry, { benchmark_run_id })) as unknown;
  } catch (err) {
    return (yield context.df.callActivityWithRetry(ACTIVITY_FINALIZE_BENCHMARK_RUN, retry, {
      benchmark_run_id,
      error: `the benchmark orchestration failed: ${(err as Error).message}`,
    })) as unknown;
  }
};
df.app.orchestration(ORCHESTRATOR_RUN_BENCHMARK, runBenchmark);

const planActivity: ActivityHandler = async (input: unknown) => {
  const { benchmark_run_id } = InputSchema.parse(input);
  return planBenchmarkRun(benchmark_run_id, await getServices());
};
df.app.activity(ACTIVITY_PLAN_BENCHMARK_RUN, { handler: planActivity });

const startTaskActivity: ActivityHandler = async (input: unknown) => {
  const { benchmark_run_id, task_id } = TaskInputSchema.parse(input);
  const services = await getServices();
  const started = await startBenchmarkTask(benchmark_run_id, task_id, {
    ...services,
    check: (run, target) => checkRunConfig(run, target, services),
  });
  // the run's input (and its trace span) is made here, not in the orchestrator, which replays
  return started.run_id === null ? started : { ...started, input: runOrchestrationInput(started.run_id) };
};
df.app.activity(ACTIVITY_START_BENCHMARK_TASK, { handler: startTaskActivity });

const settleTaskActivity: ActivityHandler = async (input: unknown) => {
  const { benchmark_run_id, task_id, orchestration_error } = SettleInputSchema.parse(input);
  const services = await getServices();
  return settleBenchmarkTask(benchmark_run_id, task_id, {
    ...services,
    ...(orchestration_error ? { orchestrationError: orchestration_error } : {}),
  });
};
df.app.activity(ACTIVITY_SETTLE_BENCHMARK_TASK, { handler: settleTaskActivity });

const skipTasksActivity: ActivityHandler = async (input: unknown) => {
  const { benchmark_run_id, skips } = SkipInputSchema.parse(input);
  await skipBenchmarkTasks(benchmark_run_id, skips, await getServices());
  return null;
};
df.app.activity(ACTIVITY_SKIP_BENCHMARK_TASKS, { handler: skipTasksActivity });

const finalizeActivity: ActivityHandler = async (input: unknown) => {
  const { benchmark_run_id, error } = FinalizeInputSchema.parse(input);
  const services = await getServices();
  const run = await finalizeBenchmarkRun(benchmark_run_id, { ...services, ...(error ? { error } : {}) });
  return { benchmark_run_id, status: run.status, tasks: run.tasks.map((t) => ({ task_id: t.task_id, status: t.status })) };
};
df.app.activity(ACTIVITY_FINALIZE_BENCHMARK_RUN, { handler: finalizeActivity });
