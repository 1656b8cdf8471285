// The public surface of lib/resilience: other folders import it from here.
export { backoffDelayInMs, retryWaitInMs } from './retry.js';
export { isRetryableStatus, retryAfterInMs } from './retryable.js';
export { CircuitBreaker } from './circuitBreaker.js';
export type { CircuitBreakerOptions } from './circuitBreaker.js';
export { RateLimiter } from './rateLimiter.js';
export type { RateLimiterSnapshot } from './rateLimiter.js';
export { ResilientTarget } from './resilientTarget.js';
export type { BackoffOptions } from './retry.js';
