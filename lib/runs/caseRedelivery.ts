import type { EvaluationConfig } from '../domain/index.js';
import { isRetryableFailure, type QueueMessage, type TargetFailure } from '../ports/index.js';
import { caseMessageId, type CaseMessage } from './queues.js';

/** Longest wait between two deliveries of a case after target failures. */
export const MAX_REDELIVERY_DELAY_MS = 60_000;
/** First wait after a target failure; doubles per delivery (full jitter). */
export const BASE_REDELIVERY_DELAY_MS = 1_000;
/** Extra wait after the breaker's open window, so deferred cases do not all arrive at the probe together. */
export const DEFERRAL_SPREAD_MS = 2_000;

/** What to do with a case whose target call failed. */
export type TargetFailureDecision =
  { kind: 'defer'; at: Date; reason: string } | { kind: 'redeliver'; at: Date; reason: string } | { kind: 'score'; reason: string };

/**
 * The circuit breaker defers, it does not score; a failing target gets a budget of deliveries per case:
 * - the call was refused by an open circuit before any request (`attempts` 0): put the case off until the open
 *   window ends (plus a spread), without spending its budget, as long as that is before the run's deadline;
 * - the target failed retryably (timeouts, network errors, 408/429/5xx; a retry refused by the circuit included)
 *   and the case has deliveries left
 *   (`config.max_case_deliveries`): deliver it again after an exponential backoff with full jitter (1 s, 2 s,
 *   4 s ... capped at 60 s), and not before an open circuit's window ends;
 * - otherwise (budget spent, or a failure no retry fixes, such as an HTTP 4xx) score it (a target error: not
 *   scored, never a model failure).
 */
export function decideTargetFailure(
  failure: TargetFailure,
  message: CaseMessage,
  context: {
    config: Pick<EvaluationConfig, 'max_case_deliveries'>;
    deadlineAt: string;
    now: Date;
    retryInMs?: number | undefined;
    random?: () => number;
  },
): TargetFailureDecision {
  const random = context.random ?? Math.random;
  const now = context.now.getTime();
  const deadline = Date.parse(context.deadlineAt);
  const delivery = message.delivery ?? 1;
  // spread deferred cases over the window after the probe (at most DEFERRAL_SPREAD_MS; shorter for short windows)
  const openMs = Math.max(0, context.retryInMs ?? 0);
  const openFor = failure.circuit_open ? openMs + Math.floor(random() * Math.min(DEFERRAL_SPREAD_MS, Math.max(100, openMs))) : 0;
  if (failure.circuit_open && failure.attempts === 0) {
    if (now + openFor < deadline) return { kind: 'defer', at: new Date(now + openFor), reason: failure.message };
    return { kind: 'score', reason: `the run's deadline comes before the target's circuit closes: ${failure.message}` };
  }
  // the target was called and failed (a retry refused by the circuit still spent this delivery); a failure another
  // attempt cannot fix (an HTTP 4xx, a garbage answer: `retryable` false) is scored at once
  if (delivery < context.config.max_case_deliveries && (failure.circuit_open || isRetryableFailure(failure))) {
    const backoff = Math.floor(random() * Math.min(MAX_REDELIVERY_DELAY_MS, BASE_REDELIVERY_DELAY_MS * 2 ** (delivery - 1)));
    const wait = Math.max(backoff, openFor);
    if (now + wait < deadline) return { kind: 'redeliver', at: new Date(now + wait), reason: failure.message };
  }
  return { kind: 'score', reason: failure.message };
}

/** The copy of an evaluate message that carries a deferred or redelivered case (its own deterministic id). */
export function redeliveryMessage(message: CaseMessage, decision: Extract<TargetFailureDecision, { at: Date }>): QueueMessage<CaseMessage> {
  const delivery = (message.delivery ?? 1) + (decision.kind === 'redeliver' ? 1 : 0);
  const deferrals = (message.deferrals ?? 0) + (decision.kind === 'defer' ? 1 : 0);
  const body: CaseMessage = { ...message, delivery, deferrals };
  return {
    messageId: caseMessageId(message.run_id, message.test_case_id, message.stage, message.attempt, message.trial ?? 1, {
      delivery,
      deferrals,
    }),
    correlationId: message.run_id,
    body,
    scheduledEnqueueTimeUtc: decision.at,
    applicationProperties: {
      'evalp-redelivery': decision.kind,
      ...(message.traceparent ? { traceparent: message.traceparent, 'Diagnostic-Id': message.traceparent } : {}),
    },
  };
}
