import { app, type InvocationContext } from '@azure/functions';
import { getServices } from '../../lib/app/index.js';
import { EVENT_CANCEL, processCaseMessages, QUEUES, type QueueStage, RunContextCache } from '../../lib/runs/index.js';
import * as df from 'durable-functions';
import { logFields } from '../../lib/telemetry/index.js';
import { RUN_PRIORITIES, type RunPriority } from '../../lib/domain/index.js';
import { priorityQueueName } from '../../lib/ports/index.js';
import { SERVICE_BUS_CONNECTION } from '../settings.js';

let contexts: RunContextCache | undefined;

/**
 * One stage worker per queue. Messages settle one by one: a malformed one is dead-lettered at once, one that throws is
 * scheduled again with backoff (dead-lettered after 5 failures), the rest complete. A throw abandons the batch (storage
 * or queue down); it is redelivered and every step is idempotent. A run whose configuration turned out not to work was
 * failed by the batch: its orchestration is ended (the Cancel event: finalize leaves the failed status and its reason).
 */
function worker(stage: QueueStage, queueName: string) {
  return async (messages: unknown[], context: InvocationContext): Promise<void> => {
    const services = await getServices();
    contexts ??= new RunContextCache(services);
    const meta = context.triggerMetadata ?? {};
    const result = await processCaseMessages(messages, services, contexts, undefined, {
      queueName,
      ...(Array.isArray(meta.messageIdArray) ? { messageIds: meta.messageIdArray as Array<string | null> } : {}),
      ...(Array.isArray(meta.deliveryCountArray) ? { deliveryCounts: meta.deliveryCountArray as Array<number | null> } : {}),
      ...(Array.isArray(meta.applicationPropertiesArray)
        ? { applicationProperties: meta.applicationPropertiesArray as Array<Record<string, unknown> | null> }
        : {}),
    });
    if (result.failed_run_ids.length > 0) {
      const client = df.getClient(context);
      for (const runId of result.failed_run_ids) {
        context.error(`${stage}: run ${runId} failed: its configuration cannot work`, logFields({ run_id: runId }));
        await client.raiseEvent(runId, EVENT_CANCEL, { reason: 'configuration' });
      }
    }
    const fate = services.runQueues?.deadLetterMessages ? 'dead-lettered' : 'dropped (this backend cannot dead-letter it)';
    for (const reason of result.rejected) context.error(`${stage}: malformed message ${fate}: ${reason}`);
    if (result.failed)
      context.warn(
        `${stage}: ${result.failed} message(s) failed and were scheduled again or dead-lettered; the rest of the batch was settled`,
      );
    context.trace(
      `${stage}: ${messages.length} messages, ${result.written} scorecards written, ${result.forwarded} forwarded, ${result.skipped} skipped, ` +
        `${result.deferred} deferred (circuit open), ${result.redelivered} redelivered, ${result.dead_lettered} dead-lettered`,
    );
  };
}

/**
 * One trigger per stage and priority: Service Bus has no message priority, so high and low runs' messages go to the
 * `-high` / `-low` sibling queues (priorityQueueName), each with its own trigger and concurrency: a high run's cases
 * never wait behind a low run's backlog, and a low run keeps its own share (README "Run priorities"). The embedded
 * host ranks priorities inside the one queue, so there the sibling triggers idle on empty queues.
 */
const FUNCTION_NAMES = { evaluate: 'evaluateCases', execute: 'executeCases', judge: 'judgeCases' } as const satisfies Record<
  QueueStage,
  string
>;
const SUFFIX = { normal: '', high: 'High', low: 'Low' } as const satisfies Record<RunPriority, string>;
for (const stage of Object.keys(QUEUES) as QueueStage[]) {
  for (const priority of RUN_PRIORITIES) {
    const queueName = priorityQueueName(QUEUES[stage], priority);
    app.serviceBusQueue(`${FUNCTION_NAMES[stage]}${SUFFIX[priority]}`, {
      connection: SERVICE_BUS_CONNECTION,
      queueName,
      cardinality: 'many',
      extraInputs: [df.input.durableClient()],
      handler: worker(stage, queueName),
    });
  }
}
