import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from './circuitBreaker.js';
import { type CircuitState } from '../ports/index.js';

function setup(options: { failureThreshold?: number; openDurationInMs?: number } = {}) {
  let time = 1000;
  const transitions: string[] = [];
  const breaker = new CircuitBreaker({
    ...options,
    now: () => time,
    onStateChange: (state: CircuitState, previous: CircuitState) => transitions.push(`${previous}->${state}`),
  });
  const fail = (n = 1) => {
    for (let i = 0; i < n; i++) breaker.tryAcquire()!.failure();
  };
  return { breaker, transitions, fail, advance: (ms: number) => void (time += ms) };
}

describe('CircuitBreaker', () => {
  it('starts closed and admits calls', () => {
    const { breaker } = setup();
    expect(breaker.snapshot()).toEqual({ state: 'closed', consecutive_failures: 0 });
    expect(breaker.allowsRequest()).toBe(true);
    expect(breaker.tryAcquire()).toBeDefined();
  });

  it('opens after 5 consecutive failures and refuses calls for 30 s', () => {
    const { breaker, transitions, fail, advance } = setup();
    fail(4);
    expect(breaker.snapshot()).toEqual({ state: 'closed', consecutive_failures: 4 });
    fail(1);
    expect(breaker.snapshot()).toEqual({ state: 'open', consecutive_failures: 5, retry_in_ms: 30_000 });
    expect(transitions).toEqual(['closed->open']);
    advance(29_999);
    expect(breaker.tryAcquire()).toBeUndefined();
    expect(breaker.allowsRequest()).toBe(false);
    expect(breaker.snapshot().retry_in_ms).toBe(1);
  });

  it('a success resets the count: failures must be consecutive', () => {
    const { breaker, fail } = setup();
    fail(4);
    breaker.tryAcquire()!.success();
    fail(4);
    expect(breaker.snapshot()).toEqual({ state: 'closed', consecutive_failures: 4 });
  });

  it('after 30 s is half-open and admits exactly ONE probe while it runs', () => {
    const { breaker, fail, advance, transitions } = setup();
    fail(5);
    advance(30_000);
    expect(breaker.state).toBe('half_open');
    const probe = breaker.tryAcquire();
    expect(probe).toBeDefined();
    expect(breaker.allowsRequest()).toBe(false);
    expect([breaker.tryAcquire(), breaker.tryAcquire()]).toEqual([undefined, undefined]);
    expect(transitions).toEqual(['closed->open', 'open->half_open']);
  });

  it('a successful probe closes the circuit', () => {
    const { breaker, fail, advance, transitions } = setup();
    fail(5);
    advance(30_000);
    breaker.tryAcquire()!.success();
    expect(breaker.snapshot()).toEqual({ state: 'closed', consecutive_failures: 0 });
    expect(transitions).toEqual(['closed->open', 'open->half_open', 'half_open->closed']);
    fail(4);
    expect(breaker.state).toBe('closed'); // a fresh count of 5 is needed again
  });

  it('a failed probe opens the circuit again for another 30 s', () => {
    const { breaker, fail, advance, transitions } = setup();
    fail(5);
    advance(30_000);
    breaker.tryAcquire()!.failure();
    expect(breaker.snapshot()).toMatchObject({ state: 'open', retry_in_ms: 30_000 });
    advance(29_000);
    expect(breaker.tryAcquire()).toBeUndefined();
    advance(1_000);
    expect(breaker.tryAcquire()).toBeDefined();
    expect(transitions).toEqual(['closed->open', 'open->half_open', 'half_open->open', 'open->half_open']);
  });

  it('a cancelled probe frees the slot for another probe', () => {
    const { breaker, fail, advance } = setup();
    fail(5);
    advance(30_000);
    breaker.tryAcquire()!.cancel();
    expect(breaker.state).toBe('half_open');
    expect(breaker.tryAcquire()).toBeDefined();
  });

  it('ignores reports from permits issued before a transition, and second reports', () => {
    const { breaker, fail, advance } = setup();
    const slow = breaker.tryAcquire()!;
    fail(5); // opens
    slow.success(); // a slow success from before it opened does not close it
    expect(breaker.state).toBe('open');
    advance(30_000);
    const probe = breaker.tryAcquire()!;
    probe.success();
    probe.failure(); // second report ignored
    expect(breaker.state).toBe('closed');
  });

  it.each([
    [1, 1_000],
    [3, 0],
  ])('honours failureThreshold %i and openDurationInMs %i', (failureThreshold, openDurationInMs) => {
    const { breaker, fail } = setup({ failureThreshold, openDurationInMs });
    fail(failureThreshold - 1);
    expect(breaker.state).toBe('closed');
    fail(1);
    expect(breaker.state).toBe(openDurationInMs === 0 ? 'half_open' : 'open');
  });

  it.each([{ failureThreshold: 0 }, { openDurationInMs: -1 }])('rejects bad options %j', (options) => {
    expect(() => new CircuitBreaker(options)).toThrow(RangeError);
  });
});
