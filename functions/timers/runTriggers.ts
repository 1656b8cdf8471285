import { app, type InvocationContext, type Timer } from '@azure/functions';
import * as df from 'durable-functions';
import { getServices } from '../../lib/app/index.js';
import { dueTriggeredRuns } from '../../lib/runs/index.js';
import { startUnlessStarted } from '../durable/startUnlessStarted.js';

/**
 * Every minute: the client triggers besides schedules (lib/runs/triggers): a newer version of the tool catalog a
 * client's target uses, new cases in a client's suites once the additions are quiet (debounce), and the pending
 * re-evaluations a finished run created on a model version change. Each event starts exactly one run (ids derive
 * from the event), so a timer firing twice or on two instances starts nothing twice.
 */
app.timer('runTriggers', {
  schedule: '30 * * * * *',
  runOnStartup: false,
  extraInputs: [df.input.durableClient()],
  handler: async (_timer: Timer, context: InvocationContext) => {
    const services = await getServices();
    const client = df.getClient(context);
    const { started, resumed, skipped } = await dueTriggeredRuns(services, (runId) => startUnlessStarted(client, runId));
    if (started.length) context.log(`runTriggers: started ${started.join(', ')}`);
    if (resumed.length) context.log(`runTriggers: started pending ${resumed.join(', ')}`);
    for (const skip of skipped)
      context.log(
        `runTriggers: ${skip.trigger} for client ${skip.client_id}${skip.suite_id ? ` suite ${skip.suite_id}` : ''}: ${skip.reason}`,
      );
  },
});
