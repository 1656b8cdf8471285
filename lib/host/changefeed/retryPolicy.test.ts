import { describe, expect, it } from 'vitest';
import { DEFAULT_FEED_RETRY, parseFeedRetry, retryDelayMs, type FeedRetryPolicy } from './retryPolicy.js';

describe('parseFeedRetry', () => {
  it.each([
    ['no retry option', undefined, DEFAULT_FEED_RETRY],
    [
      'fixedDelay as @azure/functions registers it',
      { strategy: 'fixedDelay', retryStrategy: 'fixedDelay', maxRetryCount: 3, delayInterval: { seconds: 2 } },
      { strategy: 'fixedDelay', maxRetryCount: 3, delayMs: 2_000 },
    ],
    [
      'exponentialBackoff with Duration objects',
      { strategy: 'exponentialBackoff', maxRetryCount: -1, minimumInterval: { milliseconds: 250 }, maximumInterval: { minutes: 1 } },
      { strategy: 'exponentialBackoff', maxRetryCount: -1, minimumMs: 250, maximumMs: 60_000 },
    ],
    [
      'retryStrategy with plain milliseconds',
      { retryStrategy: 'fixedDelay', maxRetryCount: 0, delayInterval: 10 },
      { strategy: 'fixedDelay', maxRetryCount: 0, delayMs: 10 },
    ],
  ])('reads %s', (_label, input, expected) => {
    expect(parseFeedRetry(input, 'retry')).toEqual(expected);
  });

  it.each([
    ['an unknown strategy', { strategy: 'linear', maxRetryCount: 1 }, 'strategy'],
    ['a negative count', { strategy: 'fixedDelay', maxRetryCount: -2, delayInterval: 1 }, 'maxRetryCount'],
    ['a missing delay', { strategy: 'fixedDelay', maxRetryCount: 1 }, 'delayInterval'],
    ['a string', 'often', 'must be an object'],
  ])('rejects %s', (_label, input, message) => {
    expect(() => parseFeedRetry(input, 'retry')).toThrow(message);
  });
});

describe('retryDelayMs', () => {
  const delays = (policy: FeedRetryPolicy, n: number) => Array.from({ length: n }, (_, i) => retryDelayMs(policy, i + 1));

  it.each([
    ['the default: forever, doubling from 100 ms, capped at 5 s', DEFAULT_FEED_RETRY, 8, [100, 200, 400, 800, 1600, 3200, 5000, 5000]],
    ['fixedDelay with 2 retries', { strategy: 'fixedDelay', maxRetryCount: 2, delayMs: 50 } as const, 3, [50, 50, undefined]],
    [
      'exponentialBackoff with 3 retries',
      { strategy: 'exponentialBackoff', maxRetryCount: 3, minimumMs: 10, maximumMs: 25 } as const,
      4,
      [10, 20, 25, undefined],
    ],
    ['no retries', { strategy: 'fixedDelay', maxRetryCount: 0, delayMs: 1 } as const, 1, [undefined]],
  ])('gives %s', (_label, policy, n, expected) => {
    expect(delays(policy, n)).toEqual(expected);
  });
});
