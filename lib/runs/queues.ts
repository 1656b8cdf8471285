import { createHash } from 'node:crypto';
import { z } from 'zod';
import { RUN_PRIORITIES, RunPrioritySchema } from '../domain/index.js';
import { priorityQueueName } from '../ports/index.js';
import { CaseStateSchema } from './caseStateSchema.js';

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
 * Every physical stage queue: the three of QUEUES and, for Service Bus (no message priority), their `-high` and
 * `-low` siblings (priorityQueueName). The embedded host keeps priorities inside the one queue, so its siblings stay
 * empty. Run health, dead letters and the infrastructure use this list.
 */
export const STAGE_QUEUE_NAMES: readonly string[] = Object.values(QUEUES).flatMap((q) =>
  RUN_PRIORITIES.map((p) => priorityQueueName(q, p)),
);

/**
 * One case on its way through the waterfall. `state` (a CaseState) is present on the execute and judge queues:
 * it carries the parsed calls and stage results, so no stage re-invokes the target.
 */
const CaseMessageFields = z.object({
  run_id: z.string().min(1),
  test_case_id: z.string().min(1),
  attempt: z.number().int().positive(),
  /** the trial (1..k) of a run with `trials: k`; absent = 1 */
  trial: z.number().int().positive().optional(),
  stage: z.enum(['evaluate', 'execute', 'judge']),
  state: z.unknown().optional(),
  traceparent: z.string().optional(),
  /** the run's priority when not normal (lib/runs/stagePriority.ts): every copy of the case keeps it */
  priority: RunPrioritySchema.optional(),
  /** this copy's delivery of the case's target call: 1, then +1 per redelivery after a target failure (budget: config.max_case_deliveries) */
  delivery: z.number().int().positive().optional(),
  /** times this case was put off because its target's circuit was open (no call made, not counted in the budget) */
  deferrals: z.number().int().nonnegative().optional(),
  /** times processing this message threw (a bug, broken configuration): redelivered with backoff, dead-lettered at MAX_PROCESSING_FAILURES */
  failures: z.number().int().nonnegative().optional(),
});

/**
 * A stage message, validated at the queue boundary: execute and judge messages must carry a CaseState of the same
 * run and case (`CaseStateSchema`). A message that fails this is poison: dead-lettered at once with the error.
 */
export const CaseMessageSchema = CaseMessageFields.superRefine((m, ctx) => {
  if (m.stage === 'evaluate') return;
  const state = CaseStateSchema.safeParse(m.state);
  if (!state.success) {
    for (const issue of state.error.issues) ctx.addIssue({ code: 'custom', path: ['state', ...issue.path], message: issue.message });
    return;
  }
  if (state.data.run_id !== m.run_id || state.data.test_case_id !== m.test_case_id) {
    ctx.addIssue({
      code: 'custom',
      path: ['state'],
      message: `belongs to ${state.data.run_id}/${state.data.test_case_id}, not to the message's ${m.run_id}/${m.test_case_id}`,
    });
  }
});
export type CaseMessage = z.infer<typeof CaseMessageSchema>;

const MAX_MESSAGE_ID = 128;

/**
 * Deterministic message id `runId:caseId:stage:attempt` (`…:t<trial>` for trials after the first), so Service Bus
 * (and the embedded queue) drop a duplicate send of the same case, trial and stage. A redelivered copy (after a target
 * failure or an open circuit) adds `:d<delivery>.<deferrals>`, so each redelivery is sent once too. Service Bus caps
 * ids at 128 characters: longer ones are hashed.
 */
export function caseMessageId(
  runId: string,
  testCaseId: string,
  stage: QueueStage,
  attempt: number,
  trial = 1,
  redelivery?: { delivery: number; deferrals: number },
): string {
  const again =
    redelivery && (redelivery.delivery > 1 || redelivery.deferrals > 0) ? `:d${redelivery.delivery}.${redelivery.deferrals}` : '';
  const id = `${runId}:${testCaseId}:${stage}:${attempt}${trial > 1 ? `:t${trial}` : ''}${again}`;
  return id.length <= MAX_MESSAGE_ID ? id : `h:${createHash('sha256').update(id).digest('hex')}`;
}
