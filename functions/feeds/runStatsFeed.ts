import { app, type InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';
import { getServices } from '../../lib/app/index.js';
import { aggregateOutcomes, EVENT_RUN_COMPLETED } from '../../lib/runs/index.js';
import { liveRegressionChecks } from '../../lib/alerts/index.js';
import { logFields } from '../../lib/telemetry/index.js';
import { COSMOS_CONNECTION, DATABASE_NAME, LEASES_CONTAINER, SCORECARDS_CONTAINER } from '../settings.js';

/**
 * The scorecards change feed drives live run statistics (idempotent per case), tells the orchestrator when
 * every case of a run is in, and runs the live regression check of a run at 25%, 50% and 75% once enough cases
 * are in (lib/alerts/liveRegressionChecks: claimed once per run and quarter). Raising RunCompleted twice is
 * harmless: the orchestrator waits for it once. A failed live check is logged, never retried here: the run's
 * final check repeats it.
 */
app.cosmosDB('runStatsFeed', {
  connection: COSMOS_CONNECTION,
  databaseName: DATABASE_NAME,
  containerName: SCORECARDS_CONTAINER,
  leaseContainerName: LEASES_CONTAINER,
  leaseContainerPrefix: 'runstats-',
  createLeaseContainerIfNotExists: false,
  startFromBeginning: true,
  maxItemsPerInvocation: 1000,
  retry: { strategy: 'exponentialBackoff', maxRetryCount: -1, minimumInterval: { seconds: 1 }, maximumInterval: { seconds: 30 } },
  extraInputs: [df.input.durableClient()],
  handler: async (documents: unknown[], context: InvocationContext) => {
    const services = await getServices();
    const result = await aggregateOutcomes(documents, services.stores);
    const client = df.getClient(context);
    for (const runId of result.completed_run_ids)
      await client.raiseEvent(runId, EVENT_RUN_COMPLETED, { at: services.clock.now().toISOString() });
    if (result.ignored) context.warn(`runStatsFeed: ${result.ignored} documents were not scorecards of a known run`);
    const live = await liveRegressionChecks(result.stats, services);
    for (const check of live.checks)
      if (check.alerts.length)
        context.log(
          `runStatsFeed: live regression alerts on ${check.run_id}: ${check.alerts.map((a) => `${a.metric} ${a.severity}`).join(', ')}`,
          logFields({ run_id: check.run_id }),
        );
    for (const failure of live.failed)
      context.warn(
        `runStatsFeed: live regression check of ${failure.run_id} failed: ${failure.error}`,
        logFields({ run_id: failure.run_id }),
      );
  },
});
