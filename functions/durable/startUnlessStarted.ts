import type * as df from 'durable-functions';
import { ORCHESTRATOR_RUN_EVALUATION } from '../../lib/runs/index.js';

/** durable-functions 3.x getStatus throws this for an instance id it does not know. */
const NOT_FOUND = /HTTP 404/;

/**
 * Starts the run's orchestration `runEvaluation` (instance id = run id) unless that instance exists; true when it
 * started one now. The timers that create runs with deterministic ids (client schedules, triggers) call it, so a
 * timer firing twice, or on two instances, starts each run once, and a run left pending is started at the next check.
 */
export async function startUnlessStarted(client: Pick<df.DurableClient, 'getStatus' | 'startNew'>, runId: string): Promise<boolean> {
  try {
    await client.getStatus(runId);
    return false;
  } catch (err) {
    if (!NOT_FOUND.test((err as Error).message)) throw err;
  }
  await client.startNew(ORCHESTRATOR_RUN_EVALUATION, { instanceId: runId, input: { run_id: runId } });
  return true;
}
