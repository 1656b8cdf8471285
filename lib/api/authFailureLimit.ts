import { ApiError } from './problem.js';
import { PrincipalRateLimiter } from './rateLimit.js';

type Headers = { get(name: string): string | null };

export interface AuthFailureLimitSettings {
  /** failed attempts a source may make per minute, sustained */
  perMinute: number;
  /** failed attempts a source may make in a row before the limit applies */
  burst: number;
}

export const DEFAULT_AUTH_FAILURE_LIMIT: AuthFailureLimitSettings = { perMinute: 10, burst: 20 };

/**
 * The source of a request: the last `x-forwarded-for` entry, the one the host's front end added (the embedded host
 * appends the connection's peer address, Azure's front end the client's); earlier entries are what the client
 * claims and are ignored, so a client cannot pick its own bucket.
 */
export function requestSource(headers: Headers): string {
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return entries.at(-1) ?? 'unknown';
}

/**
 * Failed authentication attempts per source, as a token bucket of failures: each refused credential (a 401 for a
 * key or token that was presented; a request without one guesses nothing) takes a token; while a
 * source's bucket is empty every request from it is answered 429 with Retry-After BEFORE its credential is looked
 * at, so keys cannot be guessed faster than `perMinute`. In memory, per process; successful calls cost nothing.
 */
export class AuthFailureLimiter {
  private readonly buckets: PrincipalRateLimiter;

  constructor(
    readonly settings: AuthFailureLimitSettings = DEFAULT_AUTH_FAILURE_LIMIT,
    options: { now?: () => number } = {},
  ) {
    this.buckets = new PrincipalRateLimiter(
      { requestsPerSecond: settings.perMinute / 60, burst: settings.burst },
      { maxPrincipals: 100_000, ...options },
    );
  }

  /** Throws the 429 to send when the source has used up its failed attempts. */
  check(source: string): void {
    const wait = this.buckets.waitInMs(source);
    if (wait <= 0) return;
    const seconds = Math.max(1, Math.ceil(wait / 1000));
    throw new ApiError(
      429,
      'Too Many Requests',
      `too many failed authentication attempts from ${source} (limit ${this.settings.perMinute} per minute, burst ${this.settings.burst}); retry in ${seconds} s`,
      [],
      { 'retry-after': String(seconds) },
    );
  }

  /** Counts one failed attempt of the source. */
  failed(source: string): void {
    this.buckets.take(source);
  }
}
