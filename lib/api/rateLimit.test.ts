import { describe, expect, it } from 'vitest';
import { PrincipalRateLimiter, type RateLimitDecision } from './rateLimit.js';

function clock() {
  let ms = 1_000;
  return { now: () => ms, advance: (d: number) => void (ms += d) };
}

describe('PrincipalRateLimiter', () => {
  it.each<[string, { rps: number; burst: number }, Array<[advanceMs: number, RateLimitDecision]>]>([
    [
      'a burst of 3, then one token every 500 ms',
      { rps: 2, burst: 3 },
      [
        [0, { allowed: true }],
        [0, { allowed: true }],
        [0, { allowed: true }],
        [0, { allowed: false, retryAfterInMs: 500 }],
        [200, { allowed: false, retryAfterInMs: 300 }],
        [300, { allowed: true }],
        [0, { allowed: false, retryAfterInMs: 500 }],
      ],
    ],
    [
      'a quiet spell refills up to the burst only',
      { rps: 10, burst: 2 },
      [
        [0, { allowed: true }],
        [60_000, { allowed: true }],
        [0, { allowed: true }],
        [0, { allowed: false, retryAfterInMs: 100 }],
      ],
    ],
  ])('%s', (_label, { rps, burst }, steps) => {
    const c = clock();
    const limiter = new PrincipalRateLimiter({ requestsPerSecond: rps, burst }, { now: c.now });
    const seen = steps.map(([advance]) => {
      c.advance(advance);
      return limiter.take('p');
    });
    expect(seen).toEqual(steps.map(([, d]) => d));
  });

  it('keeps one bucket per principal and drops the least recently used beyond maxPrincipals', () => {
    const c = clock();
    const limiter = new PrincipalRateLimiter({ requestsPerSecond: 1, burst: 1 }, { now: c.now, maxPrincipals: 2 });
    expect([limiter.take('a'), limiter.take('b'), limiter.take('a').allowed]).toEqual([{ allowed: true }, { allowed: true }, false]);
    limiter.take('c'); // evicts b (a was used more recently)
    expect([limiter.take('a').allowed, limiter.take('b').allowed]).toEqual([false, true]);
  });

  it.each([
    [{ requestsPerSecond: 0, burst: 1 }, 'requestsPerSecond'],
    [{ requestsPerSecond: 1, burst: 0.5 }, 'burst'],
  ])('refuses %j', (settings, field) => {
    expect(() => new PrincipalRateLimiter(settings)).toThrow(field);
  });
});
