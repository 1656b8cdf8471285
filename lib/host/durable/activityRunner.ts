/**
 * Runs claimed activity work items through the host's InvokeFunction, at most `maxConcurrent` at a time, and
 * commits their completions in batches (one transaction per flush, never one per activity). At-least-once: an
 * item whose result was not committed (crash, stop) runs again later.
 */
import { randomUUID } from 'node:crypto';
import type { FunctionRegistration, InvokeFunction } from '../registration.js';
import { activityCompleted, activityFailed } from './activityResult.js';
import { historyEvent } from './historyEvents.js';
import type { HubLogger } from './hubLogger.js';
import type { WorkItem, WorkQueue, WorkResult } from './workQueue.js';

export interface ActivityRunnerOptions {
  maxConcurrent: number;
  lockDurationMs: number;
  now: () => number;
  logger: HubLogger;
  /** Called after results are committed or a slot frees up (the hub then claims more work and runs episodes). */
  onProgress: () => void;
}

export class ActivityRunner {
  readonly #queue: WorkQueue;
  readonly #activities: ReadonlyMap<string, FunctionRegistration>;
  readonly #invoke: InvokeFunction;
  readonly #options: ActivityRunnerOptions;
  readonly #inFlight = new Map<number, { item: WorkItem; done: Promise<void> }>();
  #pending: WorkResult[] = [];
  #flushScheduled = false;
  #accepting = false;
  #closed = false;
  #renewTimer: NodeJS.Timeout | undefined;

  constructor(
    queue: WorkQueue,
    activities: ReadonlyMap<string, FunctionRegistration>,
    invoke: InvokeFunction,
    options: ActivityRunnerOptions,
  ) {
    this.#queue = queue;
    this.#activities = activities;
    this.#invoke = invoke;
    this.#options = options;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  start(): void {
    this.#accepting = true;
    this.#closed = false;
    const every = Math.max(10, Math.floor(this.#options.lockDurationMs / 3));
    this.#renewTimer = setInterval(() => this.#renewLocks(), every);
  }

  /** Claims as many items as there are free slots and starts them; returns how many started. */
  fill(): number {
    if (!this.#accepting) return 0;
    const free = this.#options.maxConcurrent - this.#inFlight.size;
    const items = this.#queue.claim(this.#options.now(), this.#options.lockDurationMs, free);
    for (const item of items) {
      const done = this.#run(item).finally(() => {
        this.#inFlight.delete(item.id);
        this.#options.onProgress();
      });
      this.#inFlight.set(item.id, { item, done });
    }
    return items.length;
  }

  /**
   * Stops claiming, waits up to timeoutInMs for running activities, commits what finished and releases the claims
   * of the rest (they run again on the next start; results arriving later are dropped).
   */
  async stop(timeoutInMs: number): Promise<void> {
    this.#accepting = false;
    clearInterval(this.#renewTimer);
    const running = [...this.#inFlight.values()].map((entry) => entry.done);
    if (running.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutInMs)));
      await Promise.race([Promise.allSettled(running), timeout]);
      clearTimeout(timer);
    }
    this.#flush();
    const unfinished = [...this.#inFlight.keys()];
    if (unfinished.length > 0) this.#queue.release(unfinished);
    this.#closed = true;
  }

  async #run(item: WorkItem): Promise<void> {
    const at = () => new Date(this.#options.now());
    const registration = this.#activities.get(item.name);
    let result: WorkResult;
    if (!registration) {
      const reason = `Activity function '${item.name}' does not exist in this function app (or is not an activity).`;
      result = { item, event: historyEvent.taskFailed(at(), item.taskId, reason, '') };
    } else {
      try {
        const input: unknown = JSON.parse(item.inputJson);
        const output = await this.#invoke(registration, input, {
          invocationId: randomUUID(),
          triggerMetadata: { instanceId: item.instanceId },
        });
        result = { item, event: activityCompleted(at(), item.taskId, item.name, output) };
      } catch (error) {
        result = { item, event: activityFailed(at(), item.taskId, item.name, error) };
      }
    }
    if (this.#closed) return;
    this.#pending.push(result);
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      if (!this.#closed) this.#flush();
    });
  }

  #flush(): void {
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    try {
      this.#queue.complete(batch, this.#options.now());
    } catch (error) {
      // Not committed: the items keep their claims and run again once the claims expire (at-least-once).
      this.#options.logger.log('error', 'Embedded task hub: could not commit activity results.', {
        error: String(error),
        count: batch.length,
      });
      return;
    }
    this.#options.onProgress();
  }

  #renewLocks(): void {
    if (this.#inFlight.size === 0) return;
    try {
      this.#queue.renew([...this.#inFlight.keys()], this.#options.now() + this.#options.lockDurationMs);
    } catch (error) {
      this.#options.logger.log('warning', 'Embedded task hub: could not renew activity claims.', { error: String(error) });
    }
  }
}
