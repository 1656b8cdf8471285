import { createHash } from 'node:crypto';
import { z } from 'zod';

/** The stage queues (Service Bus queues in Azure, embedded SQLite queues locally). */
export const QUEUES = {
  /** invoke the target, run stages 1-2 */
  evaluate: 'evaluate-cases',
  /** stage 3: execute the calls against live or recorded APIs */
  execute: 'execute-cases',
  /** stage 4: the semantic judge */
  judge: 'judge-cases',
} as const;
export type QueueStage = keyof typeof QUEUES;

/**
 * One case on its way through the waterfall. `state` (a CaseState) is present on the execute and judge queues:
 * it carries the parsed calls and stage results, so no stage re-invokes the target.
 */
export const CaseMessageSchema = z.object({
  run_id: z.string().min(1),
  test_case_id: z.string().min(1),
  attempt: z.number().int().positive(),
  /** the trial (1..k) of a run with `trials: k`; absent = 1 */
  trial: z.number().int().positive().optional(),
  stage: z.enum(['evaluate', 'execute', 'judge']),
  state: z.unknown().optional(),
  traceparent: z.string().optional(),
});
export type CaseMessage = z.infer<typeof CaseMessageSchema>;

const MAX_MESSAGE_ID = 128;

/**
 * Deterministic message id `runId:caseId:stage:attempt` (`…:attempt:t<trial>` for trials after the first), so
 * Service Bus (and the embedded queue) drop a duplicate send of the same case, trial and stage. Service Bus caps
 * ids at 128 characters: longer ones are hashed.
 */
export function caseMessageId(runId: string, testCaseId: string, stage: QueueStage, attempt: number, trial = 1): string {
  const id = `${runId}:${testCaseId}:${stage}:${attempt}${trial > 1 ? `:t${trial}` : ''}`;
  return id.length <= MAX_MESSAGE_ID ? id : `h:${createHash('sha256').update(id).digest('hex')}`;
}
