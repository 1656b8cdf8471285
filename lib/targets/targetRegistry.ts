import type { TargetSystem, ToolCatalog } from '../domain/index.js';
import { type ApiProvider, type CircuitSnapshot, type CircuitState, type TargetInvoker } from '../ports/index.js';
import { createTargetInvoker, RESILIENCE_BY_KIND, type TargetDeps } from './createTargetInvoker.js';
import { LazyInvoker } from './lazyInvoker.js';
import {
  type BackoffOptions,
  CircuitBreaker,
  type CircuitBreakerOptions,
  RateLimiter,
  type RateLimiterSnapshot,
  ResilientTarget,
} from '../resilience/index.js';
import { McpServerPool } from './mcp/mcpServerPool.js';
import { recordCircuitState } from '../telemetry/index.js';

export interface TargetRegistryOptions extends Omit<TargetDeps, 'catalog' | 'apiProvider'>, BackoffOptions {
  /** breaker settings for every target (default 5 failures, open 30 s) */
  breaker?: Pick<CircuitBreakerOptions, 'failureThreshold' | 'openDurationInMs'>;
  /** telemetry (`eval.circuit.state`) */
  onCircuitStateChange?: (targetId: string, state: CircuitState, previous: CircuitState) => void;
  /** invokers kept (least recently used dropped first; default 64) */
  maxCachedInvokers?: number;
  /** millisecond clock for breakers and limiters (tests) */
  now?: () => number;
  random?: () => number;
}

/** What a run or a worker supplies besides the target itself. */
export interface InvokerContext {
  catalog?: ToolCatalog;
  apiProvider?: ApiProvider;
}

export interface TargetHealth {
  target_id: string;
  circuit: CircuitSnapshot;
  limiter?: RateLimiterSnapshot;
}

interface LimiterSlot {
  limiter: RateLimiter;
  requestsPerSecond: number;
  maxInFlight: number;
}

/**
 * One per process: keeps ONE circuit breaker and ONE rate limiter per target id, so every worker and every run
 * calling a target shares them, and hands out invokers wrapped in ResilientTarget with the target's timeout_ms,
 * max_retries and rate_limit (replay is not wrapped, see RESILIENCE_BY_KIND). `invokerFor` answers at once with an
 * invoker built on first use (configuration errors are thrown by its first invoke; `check` builds it now).
 * Invokers are cached by target id, `updated_at`, and the identity of the catalog and ApiProvider; an edited
 * target (new updated_at) gets a new invoker but keeps its breaker, and a new limiter only when its rate_limit changed.
 */
export class TargetRegistry {
  private readonly breakers = new Map<string, CircuitBreaker>();
  private readonly limiters = new Map<string, LimiterSlot>();
  private readonly invokers = new Map<string, LazyInvoker>();
  private readonly identities = new WeakMap<object, number>();
  private nextIdentity = 1;
  /** the MCP servers targets name: spawned once per process, reused across cases and runs, stopped by close() */
  readonly mcp: McpServerPool;

  constructor(private readonly options: TargetRegistryOptions) {
    this.mcp = options.mcpPool ?? new McpServerPool({ secrets: options.secrets });
  }

  /** Stops the MCP servers this process started (the host calls it at shutdown). */
  async close(): Promise<void> {
    await this.mcp.close();
  }

  invokerFor(target: TargetSystem, context: InvokerContext = {}): LazyInvoker {
    const key = [target.id, target.updated_at, this.identity(context.catalog), this.identity(context.apiProvider)].join('\u0000');
    const cached = this.invokers.get(key);
    if (cached) {
      this.invokers.delete(key); // most recently used last
      this.invokers.set(key, cached);
      return cached;
    }
    const invoker = new LazyInvoker(target.id, target.settings.kind, () => this.build(target, context));
    this.invokers.set(key, invoker);
    const max = this.options.maxCachedInvokers ?? 64;
    while (this.invokers.size > max) this.invokers.delete(this.invokers.keys().next().value!);
    return invoker;
  }

  /** Builds the target's invoker now: throws TargetConfigurationError when its configuration is broken. */
  async check(target: TargetSystem, context: InvokerContext = {}): Promise<void> {
    await this.invokerFor(target, context).ready();
  }

  breakerFor(targetId: string): CircuitBreaker {
    let breaker = this.breakers.get(targetId);
    if (!breaker) {
      const notify = this.options.onCircuitStateChange;
      breaker = new CircuitBreaker({
        ...this.options.breaker,
        ...(this.options.now ? { now: this.options.now } : {}),
        onStateChange: (state: CircuitState, previous: CircuitState) => {
          recordCircuitState(targetId, state); // eval.circuit.state (no-op while metrics are off)
          notify?.(targetId, state, previous);
        },
      });
      this.breakers.set(targetId, breaker);
    }
    return breaker;
  }

  limiterFor(target: TargetSystem): RateLimiter {
    const { requests_per_second: requestsPerSecond, max_in_flight: maxInFlight } = target.rate_limit;
    const slot = this.limiters.get(target.id);
    if (slot && slot.requestsPerSecond === requestsPerSecond && slot.maxInFlight === maxInFlight) return slot.limiter;
    const limiter = new RateLimiter({ requestsPerSecond, maxInFlight, ...(this.options.now ? { now: this.options.now } : {}) });
    this.limiters.set(target.id, { limiter, requestsPerSecond, maxInFlight });
    return limiter;
  }

  /** Breaker and limiter state of every target seen (telemetry, health endpoints). */
  snapshot(): TargetHealth[] {
    return [...this.breakers].map(([id, breaker]) => {
      const limiter = this.limiters.get(id)?.limiter;
      return { target_id: id, circuit: breaker.snapshot(), ...(limiter ? { limiter: limiter.snapshot() } : {}) };
    });
  }

  private async build(target: TargetSystem, context: InvokerContext): Promise<TargetInvoker> {
    const {
      breaker: _b,
      onCircuitStateChange: _o,
      maxCachedInvokers: _m,
      now: _n,
      random,
      retryDelayInMs,
      maxRetryDelayInMs,
      ...deps
    } = this.options;
    const inner = await createTargetInvoker(target, { ...deps, mcpPool: this.mcp, ...context });
    // tool mode calls no model: no pacing, breaker or retries for it
    if (!RESILIENCE_BY_KIND[target.settings.kind] || target.eval_mode === 'tool') return inner;
    return new ResilientTarget(inner, {
      timeoutInMs: target.timeout_ms,
      maxRetries: target.max_retries,
      breaker: this.breakerFor(target.id),
      limiter: this.limiterFor(target),
      ...(retryDelayInMs === undefined ? {} : { retryDelayInMs }),
      ...(maxRetryDelayInMs === undefined ? {} : { maxRetryDelayInMs }),
      ...(random ? { random } : {}),
    });
  }

  private identity(value: object | undefined): number {
    if (!value) return 0;
    let id = this.identities.get(value);
    if (id === undefined) {
      id = this.nextIdentity++;
      this.identities.set(value, id);
    }
    return id;
  }
}
