import type { Clock, Stores } from '../../ports/index.js';
import { catalogVersionTriggers } from './catalogVersionTrigger.js';
import { newCaseTriggers } from './newCaseTrigger.js';
import { emptyTriggerResult, triggerOf, type TriggerCheckResult } from './triggerRun.js';

/**
 * One check of the client triggers (the trigger timer runs it every minute, on both hosts): new catalog versions,
 * new cases (debounced), and trigger runs left pending, such as the re-evaluations a finished run created on a
 * model version change, which are started here. `start` must start the run's orchestration unless it exists and
 * say whether it started one. Each event fires once (deterministic run ids), however often it is checked.
 */
export async function dueTriggeredRuns(
  services: { stores: Stores; clock: Clock },
  start: (runId: string) => Promise<boolean>,
): Promise<TriggerCheckResult> {
  const result = emptyTriggerResult();
  await catalogVersionTriggers(services, start, result);
  await newCaseTriggers(services, start, result);
  const fired = new Set([...result.started, ...result.resumed]);
  for (let offset = 0; ; offset += 100) {
    const page = await services.stores.runs.listRuns({ status: 'pending' }, { limit: 100, offset });
    for (const run of page.items) {
      const kind = triggerOf(run);
      if (!kind || fired.has(run.id)) continue;
      try {
        if (await start(run.id)) result.started.push(run.id);
      } catch (err) {
        result.skipped.push({
          trigger: kind,
          client_id: run.client_id ?? '',
          suite_id: run.suite_id,
          reason: `could not start ${run.id}: ${(err as Error).message}; it stays pending`,
        });
      }
    }
    if (!page.has_more) break;
  }
  return result;
}
