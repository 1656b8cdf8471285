import { app, type InvocationContext } from '@azure/functions';
import { getServices } from '../../lib/app/index.js';
import { processCaseMessages, QUEUES, type QueueStage, RunContextCache } from '../../lib/runs/index.js';
import { SERVICE_BUS_CONNECTION } from '../settings.js';

let contexts: RunContextCache | undefined;

/** One stage worker per queue. A throw abandons the batch (storage or queue down); it is redelivered and every step is idempotent. */
function worker(stage: QueueStage) {
  return async (messages: unknown[], context: InvocationContext): Promise<void> => {
    const services = await getServices();
    contexts ??= new RunContextCache(services);
    const result = await processCaseMessages(messages, services, contexts);
    for (const reason of result.rejected) context.error(`${stage}: malformed message dropped: ${reason}`);
    context.trace(`${stage}: ${messages.length} messages, ${result.written} scorecards written, ${result.forwarded} forwarded, ${result.skipped} skipped`);
  };
}

app.serviceBusQueue('evaluateCases', { connection: SERVICE_BUS_CONNECTION, queueName: QUEUES.evaluate, cardinality: 'many', handler: worker('evaluate') });
app.serviceBusQueue('executeCases', { connection: SERVICE_BUS_CONNECTION, queueName: QUEUES.execute, cardinality: 'many', handler: worker('execute') });
app.serviceBusQueue('judgeCases', { connection: SERVICE_BUS_CONNECTION, queueName: QUEUES.judge, cardinality: 'many', handler: worker('judge') });
