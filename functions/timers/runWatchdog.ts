import { app, type InvocationContext, type Timer } from '@azure/functions';
import { getServices } from '../../lib/app/index.js';
import { checkStalledRuns, DEFAULT_STALL_AFTER_MINUTES } from '../../lib/runs/index.js';
import { logFields } from '../../lib/telemetry/index.js';

const minutes = Number(process.env.EVALP_STALL_AFTER_MINUTES ?? DEFAULT_STALL_AFTER_MINUTES);

/** Every minute: marks open runs that cannot progress `stalled` with the reason, and stalled runs that move again `running`. */
app.timer('runWatchdog', {
  schedule: '30 * * * * *',
  runOnStartup: false,
  handler: async (_timer: Timer, context: InvocationContext) => {
    const services = await getServices();
    const stallAfterMs = (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_STALL_AFTER_MINUTES) * 60_000;
    const { stalled, resumed } = await checkStalledRuns(services, { stallAfterMs });
    for (const s of stalled) context.warn(`runWatchdog: run ${s.run_id} ${s.reason}`, logFields({ run_id: s.run_id }));
    for (const runId of resumed) context.log(`runWatchdog: run ${runId} running again`, logFields({ run_id: runId }));
  },
});
