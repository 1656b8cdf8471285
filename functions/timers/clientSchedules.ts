import { app, type InvocationContext, type Timer } from '@azure/functions';
import * as df from 'durable-functions';
import { getServices } from '../../lib/app/services.js';
import { ORCHESTRATOR_RUN_EVALUATION } from '../../lib/runs/activityNames.js';
import { dueScheduledRuns } from '../../lib/runs/schedules.js';

/**
 * Every minute: starts a run for each client whose cron schedule fired since the last check. The run id is
 * derived from the client and the fire time, so a timer firing twice (or two instances) starts one run.
 */
app.timer('clientSchedules', {
  schedule: '0 * * * * *',
  runOnStartup: false,
  extraInputs: [df.input.durableClient()],
  handler: async (_timer: Timer, context: InvocationContext) => {
    const services = await getServices();
    const client = df.getClient(context);
    const started = await dueScheduledRuns(services, { lookbackMs: 5 * 60_000 }, async (runId) => {
      await client.startNew(ORCHESTRATOR_RUN_EVALUATION, { instanceId: runId, input: { run_id: runId } });
    });
    if (started.length) context.log(`clientSchedules: started ${started.join(', ')}`);
  },
});
