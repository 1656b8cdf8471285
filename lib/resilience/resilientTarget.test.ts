import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestCase } from '../domain/index.js';
import { EnvSecretResolver } from '../adapters/shared/envSecretResolver.js';
import { TargetConfigurationError } from '../targets/errors.js';
import { HttpTarget } from '../targets/http/httpTarget.js';
import type { InvokeOptions, TargetInvocation, TargetInvoker } from '../ports/target.js';
import { testCase } from '../targets/testing/testCases.test-helpers.js';
import { startScriptedServer, type Responder, type ScriptedServer } from '../targets/testing/scriptedServer.test-helpers.js';
import { CircuitBreaker } from './circuitBreaker.js';
import { RateLimiter } from './rateLimiter.js';
import { ResilientTarget, type ResilientTargetOptions } from './resilientTarget.js';

const OK: TargetInvocation = {
  ok: true,
  output: 'answer',
  latency_ms: 12,
  input_tokens: 1,
  output_tokens: 2,
  cost_usd: 0,
  client_version: null,
  api_calls_made: 0,
  attempts: 1,
};
const fail = (extra: Partial<Extract<TargetInvocation, { ok: false }>> = {}): TargetInvocation => ({
  ok: false,
  error_code: 'target_error',
  message: 'boom',
  latency_ms: 3,
  attempts: 1,
  ...extra,
});

/** An inner invoker playing a script of results (or behaviours), recording what it was asked. */
class ScriptedInvoker implements TargetInvoker {
  readonly targetId = 'scripted';
  readonly kind = 'http' as const;
  calls = 0;
  readonly signals: AbortSignal[] = [];
  constructor(private readonly script: (call: number, options: InvokeOptions) => Promise<TargetInvocation> | TargetInvocation) {}
  async invoke(_tc: TestCase, options: InvokeOptions = {}): Promise<TargetInvocation> {
    this.calls++;
    if (options.abortSignal) this.signals.push(options.abortSignal);
    return this.script(this.calls, options);
  }
}

const FAST: ResilientTargetOptions = { timeoutInMs: 1_000, maxRetries: 3, retryDelayInMs: 1, maxRetryDelayInMs: 2 };
const tc = testCase('tc-1');

describe('ResilientTarget: retries', () => {
  it.each<[string, (call: number) => TargetInvocation, number, Partial<TargetInvocation>]>([
    ['a success passes through with attempts 1', () => OK, 1, { ...OK, attempts: 1 }],
    ['a retryable failure then a success', (n) => (n < 3 ? fail({ retryable: true, http_status: 503 }) : OK), 3, { ...OK, attempts: 3 }],
    [
      'a non-retryable failure is not retried',
      () => fail({ retryable: false, http_status: 400 }),
      1,
      { ok: false, http_status: 400, attempts: 1 },
    ],
    ['a failure without a retryable flag is not retried', () => fail(), 1, { ok: false, attempts: 1 }],
    ['a retryable failure every time gives up after maxRetries', () => fail({ retryable: true }), 4, { ok: false, attempts: 4 }],
    [
      'an inner timeout is retryable by default',
      (n) => (n === 1 ? fail({ error_code: 'target_timeout' }) : OK),
      2,
      { ok: true, attempts: 2 },
    ],
  ])('%s', async (_label, script, calls, expected) => {
    const inner = new ScriptedInvoker(script);
    const result = await new ResilientTarget(inner, FAST).invoke(tc);
    expect(inner.calls).toBe(calls);
    expect(result).toMatchObject(expected);
  });

  it('honours Retry-After between attempts', async () => {
    const inner = new ScriptedInvoker((n) => (n === 1 ? fail({ retryable: true, retry_after_ms: 120 }) : OK));
    const started = performance.now();
    await new ResilientTarget(inner, FAST).invoke(tc);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });

  it('reports the wall time of the whole invocation for a failure', async () => {
    const inner = new ScriptedInvoker(() => fail({ retryable: true, latency_ms: 1 }));
    const result = await new ResilientTarget(inner, {
      ...FAST,
      maxRetries: 2,
      retryDelayInMs: 40,
      maxRetryDelayInMs: 40,
      random: () => 0.99,
    }).invoke(tc);
    expect(result.latency_ms).toBeGreaterThanOrEqual(75); // two waits of 39 ms (capped at 40, draw 0.99)
  });
});

describe('ResilientTarget: timeout', () => {
  it('turns a hung attempt into target_timeout, aborts its signal, and retries it', async () => {
    const inner = new ScriptedInvoker((n, { abortSignal }) => (n === 1 ? delay(10_000, OK, { signal: abortSignal! }) : OK));
    const result = await new ResilientTarget(inner, { ...FAST, timeoutInMs: 30 }).invoke(tc);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(inner.signals[0]!.aborted).toBe(true);
  });

  it('a target that never answers: target_timeout after 1 + maxRetries attempts', async () => {
    const inner = new ScriptedInvoker((_n, { abortSignal }) => delay(10_000, OK, { signal: abortSignal! }));
    const result = await new ResilientTarget(inner, { ...FAST, timeoutInMs: 20, maxRetries: 1 }).invoke(tc);
    expect(result).toEqual({
      ok: false,
      error_code: 'target_timeout',
      message: 'target scripted did not answer within 20 ms',
      latency_ms: expect.any(Number),
      attempts: 2,
      retryable: true,
    });
  });
});

describe('ResilientTarget: circuit breaker', () => {
  it('one invocation (a case and its retries) is one failure for the breaker; once open, calls fail fast without reaching the target', async () => {
    let time = 0;
    const breaker = new CircuitBreaker({ now: () => time });
    const inner = new ScriptedInvoker(() => fail({ retryable: true, http_status: 500 }));
    const target = new ResilientTarget(inner, { ...FAST, breaker });
    const first = await target.invoke(tc); // 4 attempts: ONE failure
    expect([first.attempts, breaker.snapshot().consecutive_failures, breaker.state]).toEqual([4, 1, 'closed']);
    for (let i = 0; i < 4; i++) await target.invoke(tc); // the 5th failed case opens it
    expect(inner.calls).toBe(20);
    const refused = await target.invoke(tc); // refused at once
    expect(inner.calls).toBe(20);
    expect(refused).toEqual({
      ok: false,
      error_code: 'target_error',
      message:
        'target scripted is failing: its circuit breaker is open after 5 consecutive failures, so the call was not made; calls resume with one probe in 30 s',
      latency_ms: expect.any(Number),
      attempts: 0,
      circuit_open: true,
      retryable: false,
    });
    time += 30_000;
    const probe = await new ResilientTarget(new ScriptedInvoker(() => OK), { ...FAST, breaker }).invoke(tc);
    expect(probe.ok).toBe(true);
    expect(breaker.state).toBe('closed');
  });

  it('a retry refused by the open breaker reports the timeout that caused it, not only "circuit open"', async () => {
    // case B's first attempt times out while case A's failure opens the breaker: B's retry is refused
    const breaker = new CircuitBreaker({ failureThreshold: 1 });
    const inner = new ScriptedInvoker((n, { abortSignal }) =>
      n === 1 ? delay(10_000, OK, { signal: abortSignal! }) : fail({ retryable: false, http_status: 500 }),
    );
    const target = new ResilientTarget(inner, { ...FAST, timeoutInMs: 20, breaker });
    const b = target.invoke(tc);
    await delay(1);
    const a = await target.invoke(testCase('tc-2'));
    expect(a.ok).toBe(false);
    const result = await b;
    expect(inner.calls).toBe(2);
    expect(result).toMatchObject({ ok: false, error_code: 'target_timeout', attempts: 1, circuit_open: true });
    expect(!result.ok && result.message).toMatch(
      /^target scripted did not answer within 20 ms; the retry was not made: target scripted is failing: its circuit breaker is open/,
    );
  });

  it('a case that fails twice then answers leaves the breaker untouched (its failed attempts are not counted)', async () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2 });
    let n = 0;
    const inner = new ScriptedInvoker(() => (++n % 3 === 0 ? OK : fail({ retryable: true, http_status: 503 })));
    const target = new ResilientTarget(inner, { ...FAST, breaker });
    for (let i = 0; i < 5; i++) expect((await target.invoke(tc)).ok).toBe(true);
    expect(breaker.snapshot()).toEqual({ state: 'closed', consecutive_failures: 0 });
  });

  it('a configuration error is thrown and does not count as a failure', async () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1 });
    const inner = new ScriptedInvoker(() => {
      throw new TargetConfigurationError('settings.api_key', 'no key');
    });
    await expect(new ResilientTarget(inner, { ...FAST, breaker }).invoke(tc)).rejects.toBeInstanceOf(TargetConfigurationError);
    expect(breaker.snapshot()).toEqual({ state: 'closed', consecutive_failures: 0 });
  });
});

describe('ResilientTarget: rate limiter and cancellation', () => {
  it('holds concurrent invocations to max in flight', async () => {
    let running = 0;
    let peak = 0;
    const inner = new ScriptedInvoker(async () => {
      running++;
      peak = Math.max(peak, running);
      await delay(5);
      running--;
      return OK;
    });
    const target = new ResilientTarget(inner, { ...FAST, limiter: new RateLimiter({ requestsPerSecond: 10_000, maxInFlight: 2 }) });
    const results = await Promise.all(Array.from({ length: 10 }, () => target.invoke(tc)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(peak).toBe(2);
  });

  it("rethrows the caller's reason when cancelled during a backoff wait, freeing the limiter", async () => {
    const limiter = new RateLimiter({ requestsPerSecond: 10_000, maxInFlight: 1 });
    const inner = new ScriptedInvoker(() => fail({ retryable: true }));
    const target = new ResilientTarget(inner, { ...FAST, limiter, retryDelayInMs: 10_000, maxRetryDelayInMs: 10_000, random: () => 0.99 });
    const caller = new AbortController();
    setTimeout(() => caller.abort(new Error('run cancelled')), 20);
    await expect(target.invoke(tc, { abortSignal: caller.signal })).rejects.toThrow('run cancelled');
    expect(limiter.snapshot()).toMatchObject({ in_flight: 0, queued: 0 });
  });
});

describe('a target returning garbage, timing out or failing every call never throws', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function httpTarget(responder: Responder, options: Partial<ResilientTargetOptions> = {}) {
    server = await startScriptedServer(responder);
    const inner = new HttpTarget(
      {
        kind: 'http',
        url: `${server.origin}/agent`,
        method: 'POST',
        headers: {},
        request_template: '{"question": {{question}}}',
        response: { answer_path: '$.answer' },
      },
      { secrets: new EnvSecretResolver({}), targetId: 'flaky' },
    );
    const breaker = new CircuitBreaker();
    const limiter = new RateLimiter({ requestsPerSecond: 1_000, maxInFlight: 4 });
    return { target: new ResilientTarget(inner, { ...FAST, breaker, limiter, ...options }), breaker };
  }

  it.each<[string, Responder, Partial<ResilientTargetOptions>, string]>([
    ['always HTTP 500', () => ({ status: 500, body: 'internal error' }), {}, 'target_error'],
    ['always garbage (HTML with 200)', () => ({ headers: { 'content-type': 'text/html' }, body: '<html>' }), {}, 'target_error'],
    ['always too slow', () => ({ body: { answer: 'late' }, delayMs: 2_000 }), { timeoutInMs: 30 }, 'target_timeout'],
  ])('%s: 20 invocations all fail as data, the breaker opens, later ones fail fast', async (_label, responder, options, code) => {
    const retries = FAST.maxRetries;
    const { target, breaker } = await httpTarget(responder, options);
    const results: TargetInvocation[] = [];
    for (let i = 0; i < 20; i++) results.push(await target.invoke(testCase(`tc-${i}`)));
    expect(results.every((r) => !r.ok)).toBe(true);
    expect(results.filter((r) => !r.ok && r.circuit_open).length).toBe(15);
    expect(results.slice(5).every((r) => !r.ok && r.circuit_open && r.latency_ms < 50)).toBe(true);
    expect(results.find((r) => !r.ok && !r.circuit_open)).toMatchObject({ error_code: code });
    expect(breaker.state).toBe('open');
    // five failed cases (each with its retries) open it: at most 5 × (1 + retries) requests instead of 20 × (1 + retries)
    expect(server!.requests.length).toBeLessThanOrEqual(5 * (1 + retries));
  });

  it('20 concurrent invocations against an always-500 server: all data, few requests', async () => {
    const { target } = await httpTarget(() => ({ status: 500, body: 'no' }));
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => target.invoke(testCase(`tc-${i}`))));
    expect(results.every((r) => !r.ok)).toBe(true);
    // retries of cases already under way are refused once five cases have failed
    expect(server!.requests.length).toBeLessThan(20 * (1 + FAST.maxRetries));
  });
});
