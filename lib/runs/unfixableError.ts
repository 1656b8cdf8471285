import { type Clock, ExecutionConfigurationError, SecretResolutionError, type Stores } from '../ports/index.js';
import { JudgeConfigurationError } from '../judges/index.js';
import { TargetConfigurationError } from '../targets/index.js';

/**
 * The run's setup cannot work, and no retry or redelivery will change that: a missing setting or secret, an
 * unreadable outputs file or cassette, a stage-3 provider without the settings it needs, a judge without its
 * endpoint. Returns the reason a person can act on (naming the field), or undefined for any other error (storage,
 * queue, network: worth a redelivery).
 */
export function unfixableReason(error: unknown): string | undefined {
  if (error instanceof TargetConfigurationError) return `target configuration: ${error.setting}: ${error.message}`;
  if (error instanceof ExecutionConfigurationError) return `stage-3 configuration (config.execution): ${error.message}`;
  if (error instanceof JudgeConfigurationError) {
    const missing = error.missing.length > 0 ? ` (missing: ${error.missing.join(', ')})` : '';
    return `stage-4 judge configuration (config.semantics): ${error.message}${missing}`;
  }
  if (error instanceof SecretResolutionError) return `secret: ${error.message}`;
  return undefined;
}

/**
 * Fails a run at once with the reason (only from `pending`/`running`: a run that already finished, or that another
 * worker failed first, is left as it is). Returns true when this call failed it. The caller ends the run's
 * orchestration (lib/runs/caseWorker's `failed_run_ids`); queued cases of the run are skipped from then on.
 */
export async function failRun(runId: string, reason: string, deps: { stores: Stores; clock: Clock }): Promise<boolean> {
  const updated = await deps.stores.runs.updateRun(
    runId,
    { status: 'failed', error: reason, completed_at: deps.clock.now().toISOString() },
    { from: ['pending', 'running'] },
  );
  return updated !== undefined;
}
