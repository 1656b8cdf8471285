import { setTimeout as delay } from 'node:timers/promises';
import { backoffDelayInMs, retryAfterInMs as requestedRetryAfterInMs } from '../../resilience/index.js';

/**
 * Exponential backoff with full jitter: the targets' implementation (lib/resilience, generic, shared),
 * under the name the judge's retry loop uses. `retry` counts from 0 for the first retry.
 */
export function fullJitterDelayInMs(
  retry: number,
  options: { retryDelayInMs: number; maxRetryDelayInMs: number },
  random: () => number = Math.random,
): number {
  return backoffDelayInMs(retry, options, random);
}

/** Longest server-requested wait we honour; a longer one is clamped (the caller's abortSignal still applies). */
export const MAX_RETRY_AFTER_IN_MS = 60_000;

/**
 * The wait a 429/503 asks for (`retry-after-ms` or `retry-after`, parsed by the shared helper), clamped to
 * [0, MAX_RETRY_AFTER_IN_MS]; undefined when absent or unreadable.
 */
export function retryAfterInMs(headers: { get(name: string): string | null } | undefined, now: number = Date.now()): number | undefined {
  const asked = requestedRetryAfterInMs(headers, now);
  return asked === undefined ? undefined : Math.min(MAX_RETRY_AFTER_IN_MS, asked);
}

/** Sleep that rejects with the signal's reason as soon as `abortSignal` fires. */
export async function sleep(ms: number, abortSignal?: AbortSignal): Promise<void> {
  if (ms <= 0) {
    abortSignal?.throwIfAborted();
    return;
  }
  await delay(ms, undefined, abortSignal ? { signal: abortSignal } : undefined);
}
