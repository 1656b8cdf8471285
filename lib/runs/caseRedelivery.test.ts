import { describe, expect, it } from 'vitest';
import type { TargetFailure } from '../ports/target.js';
import { decideTargetFailure, redeliveryMessage } from './caseRedelivery.js';
import { decideFailedMessage, MAX_PROCESSING_FAILURES } from './poisonMessages.js';
import type { CaseMessage } from './queues.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const message: CaseMessage = { run_id: 'r1', test_case_id: 'c1', attempt: 1, stage: 'evaluate' };
const failed: TargetFailure = { ok: false, error_code: 'target_error', message: 'HTTP 503', latency_ms: 5, attempts: 2, retryable: true };
const refused: TargetFailure = {
  ok: false,
  error_code: 'target_error',
  message: 'circuit open',
  latency_ms: 0,
  attempts: 0,
  circuit_open: true,
};
const ctx = (over: Partial<Parameters<typeof decideTargetFailure>[2]> = {}) => ({
  config: { max_case_deliveries: 3 },
  deadlineAt: '2026-03-01T13:00:00.000Z',
  now: NOW,
  random: () => 0.5,
  ...over,
});

describe('decideTargetFailure', () => {
  it.each([
    [
      'a call refused by the open circuit is put off until the window ends (plus a spread), budget untouched',
      refused,
      message,
      { retryInMs: 30_000 },
      { kind: 'defer', at: new Date(NOW.getTime() + 30_000 + 1_000), reason: 'circuit open' },
    ],
    [
      'a failed call with deliveries left is delivered again after a jittered backoff',
      failed,
      message,
      {},
      { kind: 'redeliver', at: new Date(NOW.getTime() + 500), reason: 'HTTP 503' },
    ],
    [
      'the second redelivery waits up to twice as long',
      failed,
      { ...message, delivery: 2 },
      {},
      { kind: 'redeliver', at: new Date(NOW.getTime() + 1_000), reason: 'HTTP 503' },
    ],
    [
      'the budget spent: scored (a target error, not scored)',
      failed,
      { ...message, delivery: 3 },
      {},
      { kind: 'score', reason: 'HTTP 503' },
    ],
    [
      'a failure no retry fixes (HTTP 400) is scored at once',
      { ...failed, retryable: false, message: 'HTTP 400' },
      message,
      {},
      { kind: 'score', reason: 'HTTP 400' },
    ],
    [
      'a retry refused after a real failure spends the delivery and waits for the window',
      { ...refused, attempts: 1 },
      message,
      { retryInMs: 10_000 },
      { kind: 'redeliver', at: new Date(NOW.getTime() + 10_000 + 1_000), reason: 'circuit open' },
    ],
    [
      'an open circuit past the run deadline: scored now',
      refused,
      message,
      { retryInMs: 3_600_000 },
      { kind: 'score', reason: "the run's deadline comes before the target's circuit closes: circuit open" },
    ],
  ] as const)('%s', (_name, failure, msg, over, expected) => {
    expect(decideTargetFailure(failure, msg, ctx(over))).toEqual(expected);
  });

  it('each redelivered copy has its own id and counts', () => {
    const deferred = redeliveryMessage(message, { kind: 'defer', at: NOW, reason: 'x' });
    const again = redeliveryMessage({ ...message, deferrals: 1 }, { kind: 'redeliver', at: NOW, reason: 'x' });
    expect([deferred.messageId, deferred.body.deferrals, deferred.body.delivery, deferred.scheduledEnqueueTimeUtc]).toEqual([
      'r1:c1:evaluate:1:d1.1',
      1,
      1,
      NOW,
    ]);
    expect([again.messageId, again.body.deferrals, again.body.delivery]).toEqual(['r1:c1:evaluate:1:d2.1', 1, 2]);
  });
});

describe('decideFailedMessage', () => {
  it('redelivers with exponential backoff, then dead-letters with the last error', () => {
    const first = decideFailedMessage(message, new TypeError('boom'), 'id-1', NOW, () => 0.999);
    expect(first).toMatchObject({
      kind: 'redeliver',
      message: { messageId: 'r1:c1:evaluate:1:f1', body: { failures: 1 }, scheduledEnqueueTimeUtc: new Date(NOW.getTime() + 999) },
    });
    const fourth = decideFailedMessage({ ...message, failures: 3 }, new TypeError('boom'), 'id-1', NOW, () => 0.999);
    expect(fourth).toMatchObject({ kind: 'redeliver', message: { scheduledEnqueueTimeUtc: new Date(NOW.getTime() + 7_992) } });
    const last = decideFailedMessage({ ...message, failures: MAX_PROCESSING_FAILURES - 1 }, new TypeError('boom'), 'id-1', NOW);
    expect(last).toEqual({
      kind: 'dead-letter',
      poison: {
        messageId: 'id-1',
        correlationId: 'r1',
        body: { ...message, failures: MAX_PROCESSING_FAILURES - 1 },
        reason: 'ProcessingFailed',
        description: `failed ${MAX_PROCESSING_FAILURES} times; last error: TypeError: boom`,
        deliveryCount: MAX_PROCESSING_FAILURES,
      },
    });
  });
});
