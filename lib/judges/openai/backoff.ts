import { setTimeout as delay } from 'node:timers/promises';

/**
 * Exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff And Jitter"):
 * a uniform draw in [0, min(cap, base * 2^retry)). `retry` counts from 0 for the first retry.
 */
export function fullJitterDelayInMs(
  retry: number,
  options: { retryDelayInMs: number; maxRetryDelayInMs: number },
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxRetryDelayInMs, options.retryDelayInMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Longest server-requested wait we honour; a longer one is clamped (the caller's abortSignal still applies). */
export const MAX_RETRY_AFTER_IN_MS = 60_000;

interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The wait a 429/503 asks for: `retry-after-ms` (Azure OpenAI, OpenAI) or `retry-after` in seconds or as an
 * HTTP date. Undefined when absent or unreadable; clamped to [0, MAX_RETRY_AFTER_IN_MS].
 */
export function retryAfterInMs(headers: HeaderReader | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const clamp = (ms: number) => Math.min(MAX_RETRY_AFTER_IN_MS, Math.max(0, ms));
  const millis = headers.get('retry-after-ms');
  if (millis !== null && millis.trim() !== '' && Number.isFinite(Number(millis))) return clamp(Number(millis));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (Number.isFinite(Number(value))) return clamp(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : clamp(date - now);
}

/** Sleep that rejects with the signal's reason as soon as `abortSignal` fires. */
export async function sleep(ms: number, abortSignal?: AbortSignal): Promise<void> {
  if (ms <= 0) {
    abortSignal?.throwIfAborted();
    return;
  }
  await delay(ms, undefined, abortSignal ? { signal: abortSignal } : undefined);
}
