import { app, output, type InvocationContext, type Timer } from '@azure/functions';
import { CONTAINERS } from './names.js';

const ticksOut = output.cosmosDB({ connection: 'COSMOS', databaseName: 'evalp', containerName: CONTAINERS.ticks });

function recordTick(functionName: string) {
  return (timer: Timer, context: InvocationContext) => {
    context.extraOutputs.set(ticksOut, {
      id: context.invocationId,
      functionName,
      isPastDue: timer.isPastDue,
      last: timer.scheduleStatus.last,
      next: timer.scheduleStatus.next,
      firedAt: new Date().toISOString(),
    });
  };
}

/** Every second, monitored (so a restart after a gap fires once with isPastDue). */
app.timer('heartbeat', { schedule: '*/1 * * * * *', useMonitor: true, extraOutputs: [ticksOut], handler: recordTick('heartbeat') });

/** Once a year, but also at every host start. */
app.timer('startupTask', { schedule: '0 0 0 1 1 *', runOnStartup: true, extraOutputs: [ticksOut], handler: recordTick('startupTask') });
