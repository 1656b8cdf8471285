import { z } from 'zod';
import type { Run } from '../domain/index.js';
import type { QueuePort } from '../ports/index.js';

/**
 * The queue that announces finished runs (Service Bus in Azure, the embedded SQLite queue locally). Consumers:
 * functions/queues/analyticsExport.ts (the analytics table of the run). One message per run: `messageId` =
 * `run-completed:<run>`, so a finalize retried by Durable Functions sends nothing twice (duplicate detection).
 */
export const RUN_COMPLETED_QUEUE = 'run-completed';

export const RunCompletedMessageSchema = z
  .object({
    run_id: z.string().min(1),
    status: z.enum(['completed', 'degraded']),
    completed_at: z.string().min(1),
  })
  .strict();
export type RunCompletedMessage = z.infer<typeof RunCompletedMessageSchema>;

/** Statuses whose runs are announced: every case in (a `degraded` run is complete, with more not-scored cases). */
export function isAnnouncedStatus(status: Run['status']): status is RunCompletedMessage['status'] {
  return status === 'completed' || status === 'degraded';
}

/** Sends the run-completed message of a finished run; nothing for other statuses. Idempotent (deterministic messageId). */
export async function announceRunCompleted(run: Pick<Run, 'id' | 'status' | 'completed_at'>, queue: QueuePort): Promise<boolean> {
  if (!isAnnouncedStatus(run.status)) return false;
  const body: RunCompletedMessage = { run_id: run.id, status: run.status, completed_at: run.completed_at ?? '' };
  await queue.sendMessages(RUN_COMPLETED_QUEUE, [{ body, messageId: `run-completed:${run.id}`.slice(0, 128) }]);
  return true;
}
