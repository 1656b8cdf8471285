import type { CircuitSnapshot, CircuitState } from '../ports/index.js';

export interface CircuitBreakerOptions {
  /** consecutive failures that open the circuit (default 5) */
  failureThreshold?: number;
  /** how long the circuit stays open before admitting one probe (default 30 s) */
  openDurationInMs?: number;
  /** millisecond clock, injectable for tests (default performance.now) */
  now?: () => number;
  /** called on every transition (telemetry: `eval.circuit.state`) */
  onStateChange?: (state: CircuitState, previous: CircuitState) => void;
}

/** Admission to make one call: report exactly one outcome. Later reports, and reports from an older state, are ignored. */
export interface CircuitPermit {
  success(): void;
  failure(): void;
  /** the call ended without saying anything about the target (cancelled): frees a probe slot */
  cancel(): void;
}

export const DEFAULT_FAILURE_THRESHOLD = 5;
export const DEFAULT_OPEN_DURATION_IN_MS = 30_000;

/**
 * Closed: calls pass; `failureThreshold` consecutive failures open the circuit. Open: calls are refused for
 * `openDurationInMs`. Then half-open: exactly ONE probe is admitted (others are refused while it runs); its
 * success closes the circuit, its failure opens it again for another `openDurationInMs`. A permit issued before a
 * transition reports into nothing (a slow success from before the circuit opened does not close it).
 */
export class CircuitBreaker {
  private readonly failureThreshold: number;
  private readonly openDurationInMs: number;
  private readonly now: () => number;
  private readonly onStateChange: ((state: CircuitState, previous: CircuitState) => void) | undefined;
  private current: CircuitState = 'closed';
  private failures = 0;
  private openedAt = 0;
  private probeInFlight = false;
  /** bumped on every transition; permits carry the generation they were issued in */
  private generation = 0;

  constructor(options: CircuitBreakerOptions = {}) {
    this.failureThreshold = options.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD;
    this.openDurationInMs = options.openDurationInMs ?? DEFAULT_OPEN_DURATION_IN_MS;
    if (!(this.failureThreshold >= 1)) throw new RangeError(`failureThreshold must be at least 1, got ${this.failureThreshold}`);
    if (!(this.openDurationInMs >= 0)) throw new RangeError(`openDurationInMs must not be negative, got ${this.openDurationInMs}`);
    this.now = options.now ?? (() => performance.now());
    this.onStateChange = options.onStateChange;
  }

  get state(): CircuitState {
    if (this.current === 'open' && this.now() - this.openedAt >= this.openDurationInMs) this.transition('half_open');
    return this.current;
  }

  snapshot(): CircuitSnapshot {
    const state = this.state;
    const snapshot: CircuitSnapshot = { state, consecutive_failures: this.failures };
    if (state === 'open') snapshot.retry_in_ms = Math.max(0, Math.ceil(this.openedAt + this.openDurationInMs - this.now()));
    return snapshot;
  }

  /** Whether a call would be admitted now (does not take the probe slot). */
  allowsRequest(): boolean {
    const state = this.state;
    return state === 'closed' || (state === 'half_open' && !this.probeInFlight);
  }

  /** A permit for one call, or undefined when the circuit refuses it (open, or half-open with its probe running). */
  tryAcquire(): CircuitPermit | undefined {
    const state = this.state;
    if (state === 'open') return undefined;
    if (state === 'half_open') {
      if (this.probeInFlight) return undefined;
      this.probeInFlight = true;
    }
    return this.permit(this.generation, state === 'half_open');
  }

  private permit(generation: number, probe: boolean): CircuitPermit {
    let reported = false;
    const report = (outcome: 'success' | 'failure' | 'cancel'): void => {
      if (reported) return;
      reported = true;
      if (generation !== this.generation) return;
      if (probe) this.probeInFlight = false;
      if (outcome === 'success') this.onSuccess();
      else if (outcome === 'failure') this.onFailure();
    };
    return { success: () => report('success'), failure: () => report('failure'), cancel: () => report('cancel') };
  }

  private onSuccess(): void {
    this.failures = 0;
    if (this.current === 'half_open') this.transition('closed');
  }

  private onFailure(): void {
    this.failures++;
    if (this.current === 'half_open' || this.failures >= this.failureThreshold) {
      this.openedAt = this.now();
      this.transition('open');
    }
  }

  private transition(next: CircuitState): void {
    const previous = this.current;
    if (previous === next) return;
    this.current = next;
    this.generation++;
    this.probeInFlight = false;
    if (next === 'closed') this.failures = 0;
    this.onStateChange?.(next, previous);
  }
}
