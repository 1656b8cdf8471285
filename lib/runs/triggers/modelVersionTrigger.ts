import { ClientTriggersSchema, type Run } from '../../domain/index.js';
import type { Clock, Stores } from '../../ports/index.js';
import { fireTrigger, triggerOf, triggerRunId, type TriggerCheckResult } from './triggerRun.js';

/**
 * A model version change seen on a finished run (its results report other model versions than its baseline's on the
 * same target) starts a re-evaluation of the run's client when `triggers.model_version_change` is on: one full run per
 * suite of the client (no sample), recorded as `{trigger: "model_version_change", from_versions, to_versions,
 * seen_on_run}`, once per client, suite and new version set. The suite the run itself evaluated in full (not
 * sampled, not a subset) on one model version is not run again: its results are already the re-evaluation. The runs are created pending; the trigger timer starts them (a durable
 * activity cannot start an orchestration).
 */
export async function modelVersionTriggers(
  run: Run,
  change: { from: readonly string[]; to: readonly string[] },
  deps: { stores: Stores; clock: Clock },
  result: TriggerCheckResult,
): Promise<void> {
  if (!run.client_id) return;
  const client = await deps.stores.clients.get(run.client_id);
  if (!client?.triggers || !ClientTriggersSchema.parse(client.triggers).model_version_change) return;
  if (client.target_id !== run.target_id) return; // the client's target is not the one that changed
  const to = [...new Set(change.to)].sort();
  const from = [...new Set(change.from)].sort();
  const ranInFull = to.length === 1 && !run.config.sample && run.parent_run_id === null && triggerOf(run) !== 'new_cases';
  for (const suiteId of new Set(client.suite_ids)) {
    if (ranInFull && suiteId === run.suite_id) continue;
    await fireTrigger(
      'model_version_change',
      {
        client_id: client.id,
        suite_id: suiteId,
        run_id: triggerRunId('model_version_change', client.id, suiteId, to.join('\u0000')),
        config: { sample: null },
        trigger_metadata: { from_versions: from.join(', '), to_versions: to.join(', '), seen_on_run: run.id },
      },
      deps,
      undefined,
      result,
    );
  }
}
