import * as df from 'durable-functions';
import type { ActivityHandler, OrchestrationContext, OrchestrationHandler, Task } from 'durable-functions';
import { z } from 'zod';
import { getServices } from '../../lib/app/index.js';
import {
  ACTIVITY_ENQUEUE_SHARD,
  ACTIVITY_FINALIZE_RUN,
  ACTIVITY_PLAN_RUN,
  enqueueShard,
  EVENT_CANCEL,
  EVENT_RUN_COMPLETED,
  type FinalizedRun,
  finalizeRun,
  ORCHESTRATOR_RUN_EVALUATION,
  planRun,
  type RunOutcome,
  type RunPlan,
} from '../../lib/runs/index.js';
import { recordRunFinished, recordRunStarted } from '../../lib/telemetry/index.js';

const RunInputSchema = z.object({ run_id: z.string().min(1), traceparent: z.string().optional() });
const EnqueueInputSchema = z.object({
  run_id: z.string().min(1),
  shard: z.number().int().nonnegative(),
  traceparent: z.string().optional(),
});
const FinalizeInputSchema = z.object({ run_id: z.string().min(1), outcome: z.enum(['completed', 'cancelled', 'timed_out']) });

const retry = new df.RetryOptions(2_000, 5);
retry.backoffCoefficient = 2;

/**
 * One run: plan (freeze the case list into shards kept out of history), enqueue each shard (a few dozen
 * activities, never one per case), then wait for RunCompleted (raised by the statistics feed), Cancel, or
 * the deadline, and finalize. History stays O(shards) for 400,000 cases.
 */
const runEvaluation: OrchestrationHandler = function* (context: OrchestrationContext) {
  const { run_id, traceparent } = RunInputSchema.parse(context.df.getInput());
  const plan = (yield context.df.callActivityWithRetry(ACTIVITY_PLAN_RUN, retry, { run_id })) as RunPlan;
  context.df.setCustomStatus({ phase: 'enqueueing', total: plan.total, shards: plan.shard_count });
  let outcome: RunOutcome = 'completed';
  if (plan.total > 0) {
    const sends: Task[] = [];
    for (let shard = 0; shard < plan.shard_count; shard++)
      sends.push(
        context.df.callActivityWithRetry(ACTIVITY_ENQUEUE_SHARD, retry, { run_id, shard, ...(traceparent ? { traceparent } : {}) }),
      );
    yield context.df.Task.all(sends);
    context.df.setCustomStatus({ phase: 'running', total: plan.total, shards: plan.shard_count });
    const completed = context.df.waitForExternalEvent(EVENT_RUN_COMPLETED);
    const cancelled = context.df.waitForExternalEvent(EVENT_CANCEL);
    const deadline = context.df.createTimer(new Date(plan.deadline_at));
    const winner = (yield context.df.Task.any([completed, cancelled, deadline])) as Task;
    if (winner !== deadline) deadline.cancel();
    outcome = winner === cancelled ? 'cancelled' : winner === deadline ? 'timed_out' : 'completed';
  }
  context.df.setCustomStatus({ phase: 'finalizing', total: plan.total, outcome });
  const result = (yield context.df.callActivityWithRetry(ACTIVITY_FINALIZE_RUN, retry, { run_id, outcome })) as FinalizedRun;
  context.df.setCustomStatus({ phase: 'done', total: plan.total, status: result.status });
  return { run_id, status: result.status, passed: result.stats.passed, completed: result.stats.completed };
};
df.app.orchestration(ORCHESTRATOR_RUN_EVALUATION, runEvaluation);

const planRunActivity: ActivityHandler = async (input: unknown) => {
  const { run_id } = RunInputSchema.parse(input);
  const services = await getServices();
  const plan = await planRun(run_id, services);
  recordRunStarted((await services.stores.runs.getRun(run_id))?.triggered_by ?? 'unknown');
  return plan;
};
df.app.activity(ACTIVITY_PLAN_RUN, { handler: planRunActivity });

const enqueueShardActivity: ActivityHandler = async (input: unknown) => {
  const { run_id, shard, traceparent } = EnqueueInputSchema.parse(input);
  const services = await getServices();
  return enqueueShard(run_id, shard, services, traceparent ? { traceparent } : {});
};
df.app.activity(ACTIVITY_ENQUEUE_SHARD, { handler: enqueueShardActivity });

const finalizeRunActivity: ActivityHandler = async (input: unknown) => {
  const { run_id, outcome } = FinalizeInputSchema.parse(input);
  const services = await getServices();
  const result = await finalizeRun(run_id, outcome, { ...services, emailRunFinished: process.env.EVALP_EMAIL_RUN_FINISHED !== 'false' });
  recordRunFinished(result.status, (await services.stores.runs.getRun(run_id))?.triggered_by ?? 'unknown');
  return result;
};
df.app.activity(ACTIVITY_FINALIZE_RUN, { handler: finalizeRunActivity });
