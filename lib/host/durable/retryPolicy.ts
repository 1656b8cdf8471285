/** The fields of durable-functions' RetryOptions the hub reads (numbers; unset ones are undefined). */
export interface RetryPolicy {
  firstRetryIntervalInMilliseconds: number;
  maxNumberOfAttempts: number;
  backoffCoefficient?: number;
  maxRetryIntervalInMilliseconds?: number;
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Reads a RetryOptions object (or anything shaped like one); undefined when the two required numbers are missing. */
export function toRetryPolicy(value: unknown): RetryPolicy | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const first = finiteNumber(record.firstRetryIntervalInMilliseconds);
  const attempts = finiteNumber(record.maxNumberOfAttempts);
  if (first === undefined || attempts === undefined) return undefined;
  const policy: RetryPolicy = { firstRetryIntervalInMilliseconds: first, maxNumberOfAttempts: attempts };
  const coefficient = finiteNumber(record.backoffCoefficient);
  const maxInterval = finiteNumber(record.maxRetryIntervalInMilliseconds);
  if (coefficient !== undefined) policy.backoffCoefficient = coefficient;
  if (maxInterval !== undefined) policy.maxRetryIntervalInMilliseconds = maxInterval;
  return policy;
}

/**
 * Delay before the retry that follows failed attempt `failedAttempt` (1-based), as the Durable Task Framework's
 * RetryInterceptor computes it: firstRetryInterval * backoffCoefficient^(failedAttempt - 1), capped by
 * maxRetryInterval (when set and positive). The coefficient defaults to 1. Never negative.
 */
export function retryDelayMs(policy: RetryPolicy, failedAttempt: number): number {
  const coefficient = policy.backoffCoefficient ?? 1;
  const exponent = Math.max(0, failedAttempt - 1);
  const raw = policy.firstRetryIntervalInMilliseconds * Math.pow(coefficient, exponent);
  const cap = policy.maxRetryIntervalInMilliseconds;
  const capped = cap !== undefined && cap > 0 ? Math.min(raw, cap) : raw;
  return Number.isFinite(capped) && capped > 0 ? Math.round(capped) : 0;
}
