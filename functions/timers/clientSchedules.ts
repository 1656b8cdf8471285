import { app, type InvocationContext, type Timer } from '@azure/functions';
import * as df from 'durable-functions';
import { getServices } from '../../lib/app/index.js';
import { dueScheduledRuns } from '../../lib/runs/index.js';
import { startUnlessStarted } from '../durable/startUnlessStarted.js';

/**
 * Every minute: starts one run per suite of each client whose NCRONTAB schedule fired in the last 5 minutes.
 * Run ids derive from client, suite and fire time, so a timer firing twice (or two instances) starts each once;
 * a scheduled run left pending (a crash between create and start) is started at the next check.
 */
app.timer('clientSchedules', {
  schedule: '0 * * * * *',
  runOnStartup: false,
  extraInputs: [df.input.durableClient()],
  handler: async (_timer: Timer, context: InvocationContext) => {
    const services = await getServices();
    const client = df.getClient(context);
    const { started, resumed, skipped } = await dueScheduledRuns(services, { lookbackMs: 5 * 60_000 }, (runId) =>
      startUnlessStarted(client, runId),
    );
    if (started.length) context.log(`clientSchedules: started ${started.join(', ')}`);
    if (resumed.length) context.log(`clientSchedules: started pending ${resumed.join(', ')}`);
    for (const skip of skipped)
      context.warn(`clientSchedules: client ${skip.client_id}${skip.suite_id ? ` suite ${skip.suite_id}` : ''}: ${skip.reason}`);
  },
});
