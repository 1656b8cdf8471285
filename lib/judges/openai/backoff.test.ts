import { describe, expect, it } from 'vitest';
import { fullJitterDelayInMs, MAX_RETRY_AFTER_IN_MS, retryAfterInMs, sleep } from './backoff.js';

const settings = { retryDelayInMs: 500, maxRetryDelayInMs: 30_000 };

describe('fullJitterDelayInMs', () => {
  it.each([
    [0, 0.5, 250],
    [1, 0.5, 500],
    [3, 0.999, 3996],
    [10, 0.5, 15_000], // capped at maxRetryDelayInMs
    [2, 0, 0],
  ])('retry %i with draw %f waits %i ms', (retry, draw, expected) => {
    expect(fullJitterDelayInMs(retry, settings, () => draw)).toBe(expected);
  });
});

describe('retryAfterInMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    [{}, undefined],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after': '2' }, 2000],
    [{ 'retry-after': '1.5' }, 1500],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }, 3000],
    [{ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }, 0],
    [{ 'retry-after': '3600' }, MAX_RETRY_AFTER_IN_MS],
    [{ 'retry-after': 'soon' }, undefined],
  ])('%j -> %s', (headers, expected) => {
    expect(retryAfterInMs(new Headers(headers), now)).toBe(expected);
  });

  it('is undefined without headers', () => {
    expect(retryAfterInMs(undefined)).toBeUndefined();
  });
});

describe('sleep', () => {
  it('rejects at once when the signal fires', async () => {
    const started = performance.now();
    await expect(sleep(10_000, AbortSignal.timeout(20))).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('rejects a zero wait on an aborted signal and resolves it otherwise', async () => {
    await expect(sleep(0, AbortSignal.abort())).rejects.toThrow();
    await expect(sleep(0)).resolves.toBeUndefined();
  });
});
