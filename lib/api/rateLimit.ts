import { RateLimiter } from '../resilience/index.js';

export interface ApiRateLimitSettings {
  /** sustained requests per second per principal */
  requestsPerSecond: number;
  /** requests a principal may make at once after a quiet spell (the bucket size) */
  burst: number;
}

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterInMs: number };

/**
 * One token bucket per principal (the targets' RateLimiter with an unbounded in-flight count): a request takes a
 * token or is refused with the wait until the next token. Never queues: the API answers 429 with Retry-After.
 * Buckets live in memory, per process (in Azure each instance has its own); at most `maxPrincipals` are kept,
 * the least recently used dropped first (a dropped bucket starts full again).
 */
export class PrincipalRateLimiter {
  private readonly buckets = new Map<string, RateLimiter>();
  private readonly maxPrincipals: number;
  private readonly now: (() => number) | undefined;

  constructor(
    readonly settings: ApiRateLimitSettings,
    options: { maxPrincipals?: number; now?: () => number } = {},
  ) {
    if (!(settings.requestsPerSecond > 0)) throw new RangeError(`requestsPerSecond must be positive, got ${settings.requestsPerSecond}`);
    if (!(settings.burst >= 1)) throw new RangeError(`burst must be at least 1, got ${settings.burst}`);
    this.maxPrincipals = options.maxPrincipals ?? 10_000;
    this.now = options.now;
  }

  /** Takes one token from the principal's bucket, or says how long until one is free. */
  take(principalKey: string): RateLimitDecision {
    const bucket = this.bucketOf(principalKey);
    const { tokens } = bucket.snapshot();
    if (tokens < 1) return { allowed: false, retryAfterInMs: Math.ceil(((1 - tokens) / this.settings.requestsPerSecond) * 1000) };
    // a token is free and nobody waits (nobody ever does here): acquire takes it synchronously
    void bucket.acquire().then((lease) => lease.release());
    return { allowed: true };
  }

  /** How long until the key's bucket has a token (0: one is free now); takes nothing. */
  waitInMs(principalKey: string): number {
    const bucket = this.buckets.get(principalKey);
    if (!bucket) return 0;
    const { tokens } = bucket.snapshot();
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / this.settings.requestsPerSecond) * 1000);
  }

  private bucketOf(key: string): RateLimiter {
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key); // re-inserted last: the map's order is least recently used first
    } else {
      bucket = new RateLimiter({
        requestsPerSecond: this.settings.requestsPerSecond,
        burst: this.settings.burst,
        maxInFlight: Number.MAX_SAFE_INTEGER,
        ...(this.now ? { now: this.now } : {}),
      });
      if (this.buckets.size >= this.maxPrincipals) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(key, bucket);
    return bucket;
  }
}
