import type { PoisonMessage, QueueMessage } from '../ports/index.js';
import { caseMessageId, type CaseMessage } from './queues.js';

/** A message whose processing threw this many times is dead-lettered (reason `ProcessingFailed`). */
export const MAX_PROCESSING_FAILURES = 5;
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;

/** Dead-letter reasons the stage workers give (stable: `evalp dlq replay` compares them). */
export const POISON_REASONS = {
  /** the body is not a stage message (schema error in the description): retrying cannot fix it */
  invalid: 'InvalidMessage',
  /** processing threw MAX_PROCESSING_FAILURES times (the last error in the description) */
  failed: 'ProcessingFailed',
} as const;

/** What a batch does with one message whose processing threw. */
export type FailedMessageDecision =
  { kind: 'redeliver'; message: QueueMessage<CaseMessage> } | { kind: 'dead-letter'; poison: PoisonMessage };

/**
 * One message of a batch threw (the others are settled normally): deliver a copy again after an exponential
 * backoff with full jitter (1 s, 2 s, 4 s, ... capped at 60 s) until it has failed MAX_PROCESSING_FAILURES times,
 * then dead-letter it with the error. The copy has its own deterministic id (`:f<failures>`), so a batch redelivered
 * after a crash sends it once.
 */
export function decideFailedMessage(
  message: CaseMessage,
  error: unknown,
  messageId: string,
  now: Date,
  random: () => number = Math.random,
): FailedMessageDecision {
  const failures = (message.failures ?? 0) + 1;
  const description = describe(error);
  if (failures >= MAX_PROCESSING_FAILURES) {
    return {
      kind: 'dead-letter',
      poison: {
        messageId,
        correlationId: message.run_id,
        body: message,
        reason: POISON_REASONS.failed,
        description: `failed ${failures} times; last error: ${description}`,
        deliveryCount: failures,
      },
    };
  }
  const wait = Math.floor(random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (failures - 1)));
  const body: CaseMessage = { ...message, failures };
  const redelivery = { delivery: message.delivery ?? 1, deferrals: message.deferrals ?? 0 };
  return {
    kind: 'redeliver',
    message: {
      messageId: `${caseMessageId(message.run_id, message.test_case_id, message.stage, message.attempt, message.trial ?? 1, redelivery)}:f${failures}`,
      correlationId: message.run_id,
      body,
      scheduledEnqueueTimeUtc: new Date(now.getTime() + wait),
      applicationProperties: { 'evalp-redelivery': 'processing-failed', 'evalp-last-error': description.slice(0, 500) },
    },
  };
}

/** A malformed body: dead-lettered at once, the validation error as its description. */
export function invalidMessage(
  body: unknown,
  messageId: string,
  problems: string,
  deliveryCount?: number,
  applicationProperties?: Record<string, string | number | boolean>,
): PoisonMessage {
  const runId =
    typeof body === 'object' && body !== null && typeof (body as { run_id?: unknown }).run_id === 'string'
      ? (body as { run_id: string }).run_id
      : undefined;
  return {
    messageId,
    ...(runId ? { correlationId: runId } : {}),
    body,
    reason: POISON_REASONS.invalid,
    description: problems,
    ...(deliveryCount !== undefined ? { deliveryCount } : {}),
    ...(applicationProperties ? { applicationProperties } : {}),
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
