export interface RateLimiterOptions {
  /** sustained rate: tokens added per second */
  requestsPerSecond: number;
  /** calls holding a lease at once */
  maxInFlight: number;
  /** bucket size, the burst allowed after a quiet spell (default max(1, requestsPerSecond): one second's worth) */
  burst?: number;
  /** millisecond clock, injectable for tests (default performance.now) */
  now?: () => number;
}

/** Held while the call runs; `release` (idempotent) frees the in-flight slot. */
export interface RateLimitLease {
  release(): void;
}

export interface RateLimiterSnapshot {
  in_flight: number;
  queued: number;
  tokens: number;
}

interface Waiter {
  resolve(lease: RateLimitLease): void;
  reject(reason: unknown): void;
  detach(): void;
}

/**
 * A token bucket (rate) plus a semaphore (concurrency). `acquire` waits until both a token and an in-flight slot
 * are free; waiters are served strictly first come, first served (a newcomer never overtakes the queue), and a
 * waiter whose abortSignal fires leaves the queue and rejects with the signal's reason. One timer at most.
 */
export class RateLimiter {
  private readonly rate: number;
  private readonly maxInFlight: number;
  private readonly burst: number;
  private readonly now: () => number;
  private tokens: number;
  private refilledAt: number;
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(options: RateLimiterOptions) {
    if (!(options.requestsPerSecond > 0)) throw new RangeError(`requestsPerSecond must be positive, got ${options.requestsPerSecond}`);
    if (!(Number.isInteger(options.maxInFlight) && options.maxInFlight >= 1)) {
      throw new RangeError(`maxInFlight must be a positive integer, got ${options.maxInFlight}`);
    }
    this.rate = options.requestsPerSecond / 1000;
    this.maxInFlight = options.maxInFlight;
    this.burst = options.burst ?? Math.max(1, options.requestsPerSecond);
    if (!(this.burst >= 1)) throw new RangeError(`burst must be at least 1, got ${this.burst}`);
    this.now = options.now ?? (() => performance.now());
    this.tokens = this.burst;
    this.refilledAt = this.now();
  }

  acquire(options: { abortSignal?: AbortSignal } = {}): Promise<RateLimitLease> {
    const signal = options.abortSignal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.queue.length === 0 && this.inFlight < this.maxInFlight && this.takeToken()) {
      return Promise.resolve(this.lease());
    }
    return new Promise<RateLimitLease>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal?.reason);
        this.pump();
      };
      const waiter: Waiter = { resolve, reject, detach: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  snapshot(): RateLimiterSnapshot {
    this.refill();
    return { in_flight: this.inFlight, queued: this.queue.length, tokens: Math.floor(this.tokens * 1000) / 1000 };
  }

  private pump(): void {
    while (this.queue.length > 0) {
      if (this.inFlight >= this.maxInFlight) return; // a release will pump again
      if (!this.takeToken()) {
        this.schedule();
        return;
      }
      const waiter = this.queue.shift()!;
      waiter.detach();
      waiter.resolve(this.lease());
    }
  }

  private takeToken(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + (now - this.refilledAt) * this.rate);
    this.refilledAt = now;
  }

  private schedule(): void {
    if (this.timer) return;
    const waitInMs = Math.max(1, Math.ceil((1 - this.tokens) / this.rate));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, waitInMs);
  }

  private lease(): RateLimitLease {
    this.inFlight++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.pump();
      },
    };
  }
}
