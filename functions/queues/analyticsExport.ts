import { app, type InvocationContext } from '@azure/functions';
import { getServices } from '../../lib/app/index.js';
import { publishRunAnalytics } from '../../lib/reports/index.js';
import { RUN_COMPLETED_QUEUE, RunCompletedMessageSchema } from '../../lib/runs/index.js';
import { logFields } from '../../lib/telemetry/index.js';
import { SERVICE_BUS_CONNECTION } from '../settings.js';

/**
 * A run finished (completed or degraded): its scorecards go out as the analytics table (Parquet) to the export
 * folder embedded or Blob Storage / OneLake in Azure (docs/analytics-export.md). Idempotent (the file is replaced);
 * a throw (store or storage down) abandons the message and it is delivered again.
 */
app.serviceBusQueue('analyticsExport', {
  connection: SERVICE_BUS_CONNECTION,
  queueName: RUN_COMPLETED_QUEUE,
  handler: async (message: unknown, context: InvocationContext) => {
    const parsed = RunCompletedMessageSchema.safeParse(message);
    if (!parsed.success) {
      context.error(`analyticsExport: malformed message dropped: ${parsed.error.message}`);
      return;
    }
    const { run_id } = parsed.data;
    const services = await getServices();
    if (!services.analyticsSink) {
      context.log(`analyticsExport: export is off (no export folder or blob endpoint); run ${run_id} not exported`, logFields({ run_id }));
      return;
    }
    const result = await publishRunAnalytics(run_id, { stores: services.stores, sink: services.analyticsSink, clock: services.clock });
    if (result.written) context.log(`analyticsExport: run ${run_id}: ${result.rows} rows to ${result.location}`, logFields({ run_id }));
    else context.warn(`analyticsExport: run ${run_id} not exported: ${result.reason}`, logFields({ run_id }));
  },
});
