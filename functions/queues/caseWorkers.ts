import { app, type InvocationContext } from '@azure/functions';
import { getServices } from '../../lib/app/index.js';
import { EVENT_CANCEL, processCaseMessages, QUEUES, type QueueStage, RunContextCache } from '../../lib/runs/index.js';
import * as df from 'durable-functions';
import { SERVICE_BUS_CONNECTION } from '../settings.js';

let contexts: RunContextCache | undefined;

/**
 * One stage worker per queue. A throw abandons the batch (storage or queue down); it is redelivered and every step is
 * idempotent. A run whose configuration turned out not to work was failed by the batch: its orchestration is ended
 * (the Cancel event: finalize leaves the failed status and its reason as they are).
 */
function worker(stage: QueueStage) {
  return async (messages: unknown[], context: InvocationContext): Promise<void> => {
    const services = await getServices();
    contexts ??= new RunContextCache(services);
    const result = await processCaseMessages(messages, services, contexts);
    if (result.failed_run_ids.length > 0) {
      const client = df.getClient(context);
      for (const runId of result.failed_run_ids) {
        context.error(`${stage}: run ${runId} failed: its configuration cannot work`);
        await client.raiseEvent(runId, EVENT_CANCEL, { reason: 'configuration' });
      }
    }
    for (const reason of result.rejected) context.error(`${stage}: malformed message dropped: ${reason}`);
    context.trace(`${stage}: ${messages.length} messages, ${result.written} scorecards written, ${result.forwarded} forwarded, ${result.skipped} skipped`);
  };
}

app.serviceBusQueue('evaluateCases', { connection: SERVICE_BUS_CONNECTION, queueName: QUEUES.evaluate, cardinality: 'many', extraInputs: [df.input.durableClient()], handler: worker('evaluate') });
app.serviceBusQueue('executeCases', { connection: SERVICE_BUS_CONNECTION, queueName: QUEUES.execute, cardinality: 'many', extraInputs: [df.input.durableClient()], handler: worker('execute') });
app.serviceBusQueue('judgeCases', { connection: SERVICE_BUS_CONNECTION, queueName: QUEUES.judge, cardinality: 'many', extraInputs: [df.input.durableClient()], handler: worker('judge') });
