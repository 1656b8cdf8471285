/**
 * How a change-feed trigger retries a failed batch. From the function's `retry` option (metadata.retryOptions as
 * @azure/functions registers it, durations as `{ seconds }`; also plain milliseconds or a Duration object), or the
 * embedded default: retry forever, exponential from 100 ms capped at 5 s (Azure without `retry` drops the batch).
 */
export type FeedRetryPolicy =
  | { strategy: 'fixedDelay'; maxRetryCount: number; delayMs: number }
  | { strategy: 'exponentialBackoff'; maxRetryCount: number; minimumMs: number; maximumMs: number };

export const DEFAULT_FEED_RETRY: FeedRetryPolicy = {
  strategy: 'exponentialBackoff',
  maxRetryCount: -1,
  minimumMs: 100,
  maximumMs: 5_000,
};

function toMilliseconds(value: unknown, name: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'object' && value !== null) {
    const d = value as Record<string, unknown>;
    const part = (key: string) => (typeof d[key] === 'number' ? (d[key] as number) : 0);
    const ms = ((part('hours') * 60 + part('minutes')) * 60 + part('seconds')) * 1_000 + part('milliseconds') + part('nanos') / 1e6;
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  throw new TypeError(`${name} must be milliseconds or a duration object, got ${JSON.stringify(value)}.`);
}

function maxRetryCount(value: unknown, name: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= -1) return value;
  throw new TypeError(`${name}.maxRetryCount must be an integer >= -1 (-1 = forever), got ${JSON.stringify(value)}.`);
}

/** Parses a retry option; undefined gives the embedded default. Bad configuration throws. */
export function parseFeedRetry(value: unknown, name: string): FeedRetryPolicy {
  if (value === undefined || value === null) return DEFAULT_FEED_RETRY;
  if (typeof value !== 'object') throw new TypeError(`${name} must be an object, got ${typeof value}.`);
  const options = value as Record<string, unknown>;
  const strategy = options.strategy ?? options.retryStrategy;
  if (strategy === 'fixedDelay') {
    return {
      strategy,
      maxRetryCount: maxRetryCount(options.maxRetryCount, name),
      delayMs: toMilliseconds(options.delayInterval, `${name}.delayInterval`),
    };
  }
  if (strategy === 'exponentialBackoff') {
    const minimumMs = toMilliseconds(options.minimumInterval, `${name}.minimumInterval`);
    const maximumMs = toMilliseconds(options.maximumInterval, `${name}.maximumInterval`);
    return { strategy, maxRetryCount: maxRetryCount(options.maxRetryCount, name), minimumMs, maximumMs: Math.max(minimumMs, maximumMs) };
  }
  throw new TypeError(`${name}.strategy must be 'fixedDelay' or 'exponentialBackoff', got ${JSON.stringify(strategy)}.`);
}

/** Delay before retry number `retry` (1 = first retry), or undefined when the policy allows no more retries. */
export function retryDelayMs(policy: FeedRetryPolicy, retry: number): number | undefined {
  if (policy.maxRetryCount !== -1 && retry > policy.maxRetryCount) return undefined;
  if (policy.strategy === 'fixedDelay') return policy.delayMs;
  return Math.min(policy.maximumMs, policy.minimumMs * 2 ** Math.min(retry - 1, 30));
}
