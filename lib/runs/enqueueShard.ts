import { priorityOf, trialsOf } from '../domain/index.js';
import { NotFoundError, type QueueMessage, type QueuePort, type Stores } from '../ports/index.js';
import { QUEUES, caseMessageId, type CaseMessage } from './queues.js';
import { withRunPriority } from './stagePriority.js';

const SEND_BATCH = 1_000;

/**
 * Sends one evaluate message per case of a shard and trial (`trials: k` sends k per case), in batches; deterministic
 * ids make a retried activity harmless.
 */
export async function enqueueShard(
  runId: string,
  shardIndex: number,
  deps: { stores: Stores; queue: QueuePort },
  options: { attempt?: number; traceparent?: string } = {},
): Promise<{ sent: number; duplicates: number }> {
  const ids = await deps.stores.runs.getShard(runId, shardIndex);
  if (!ids) throw new NotFoundError('run shard', `${runId}#${shardIndex}`);
  const run = await deps.stores.runs.getRun(runId);
  const trials = run ? trialsOf(run.config) : 1;
  const priority = run ? priorityOf(run.config) : 'normal';
  const work: Array<{ test_case_id: string; trial: number }> = [];
  for (let trial = 1; trial <= trials; trial++) for (const test_case_id of ids) work.push({ test_case_id, trial });
  const attempt = options.attempt ?? 1;
  let sent = 0;
  let duplicates = 0;
  for (let i = 0; i < work.length; i += SEND_BATCH) {
    const batch: QueueMessage<CaseMessage>[] = work.slice(i, i + SEND_BATCH).map(({ test_case_id, trial }) => ({
      messageId: caseMessageId(runId, test_case_id, 'evaluate', attempt, trial),
      correlationId: runId,
      body: {
        run_id: runId,
        test_case_id,
        attempt,
        ...(trial > 1 ? { trial } : {}),
        stage: 'evaluate',
        ...(options.traceparent ? { traceparent: options.traceparent } : {}),
        ...(priority !== 'normal' ? { priority } : {}),
      },
      ...(options.traceparent ? { applicationProperties: { 'Diagnostic-Id': options.traceparent, traceparent: options.traceparent } } : {}),
    }));
    const r = await deps.queue.sendMessages(QUEUES.evaluate, withRunPriority(batch));
    sent += r.accepted;
    duplicates += r.duplicates;
  }
  return { sent, duplicates };
}
