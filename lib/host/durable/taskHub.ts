/**
 * The embedded Durable Functions task hub: SQLite-backed instances, histories, inboxes and activity work items,
 * driving the real durable-functions replay. One process owns the database (see README: start() releases the
 * activity claims a previous process left behind).
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { FunctionRegistration, InvokeFunction } from '../registration.js';
import { ActivityRunner } from './activityRunner.js';
import { assertSupportedDurableFunctions } from './dfLibrary.js';
import { EpisodeRunner } from './episodeRunner.js';
import { DurableHubError, validateInstanceId } from './errors.js';
import { toJsonText } from './historyEvents.js';
import { silentHubLogger, type HubLogger } from './hubLogger.js';
import { isTerminal, toDurableStatus, type DurableStatus, type StatusOptions } from './status.js';
import { TaskHubStore, type InstanceFilter, type RaiseResult, type TerminateResult } from './store.js';
import { WaiterRegistry } from './waiters.js';
import { WorkQueue } from './workQueue.js';

export interface TaskHubOptions {
  /** Clock (epoch ms) for timestamps, timers and claims; tests inject one and call wake() after moving it. */
  now?: () => number;
  /** Default 'EvalPlatformHub'. */
  taskHubName?: string;
  /** Activities running at once (default 16). */
  maxConcurrentActivities?: number;
  /** How long an activity claim lasts before another run may take the item (default 300000; renewed while running). */
  activityLockDurationMs?: number;
  /** Longest the scheduler sleeps without an in-process event (default 1000). */
  pollIntervalMs?: number;
  /** Inbox events one episode consumes at most (default 10000). */
  maxEventsPerEpisode?: number;
  logger?: HubLogger;
}

export interface StartNewOptions {
  instanceId?: string;
  input?: unknown;
}

const EPISODE_BATCH = 64;

function byName(registrations: readonly FunctionRegistration[], kind: FunctionRegistration['kind']) {
  return new Map(registrations.filter((r) => r.kind === kind).map((r) => [r.name, r] as const));
}

export class TaskHub {
  readonly taskHubName: string;
  readonly #store: TaskHubStore;
  readonly #work: WorkQueue;
  readonly #orchestrators: ReadonlyMap<string, FunctionRegistration>;
  readonly #episodes: EpisodeRunner;
  readonly #activities: ActivityRunner;
  readonly #waiters = new WaiterRegistry();
  readonly #now: () => number;
  readonly #pollIntervalMs: number;
  readonly #logger: HubLogger;
  readonly #maxConcurrent: number;
  #running = false;
  #pumping = false;
  #again = false;
  #scheduled = false;
  #current: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #backoff = new Map<string, number>();

  constructor(db: Database.Database, registrations: FunctionRegistration[], invoke: InvokeFunction, options: TaskHubOptions = {}) {
    assertSupportedDurableFunctions();
    this.taskHubName = options.taskHubName ?? 'EvalPlatformHub';
    this.#now = options.now ?? Date.now;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.#logger = options.logger ?? silentHubLogger;
    this.#maxConcurrent = options.maxConcurrentActivities ?? 16;
    this.#store = new TaskHubStore(db);
    this.#work = new WorkQueue(db);
    this.#orchestrators = byName(registrations, 'orchestrationTrigger');
    this.#episodes = new EpisodeRunner(this.#store, this.#orchestrators, {
      now: this.#now,
      logger: this.#logger,
      maxEventsPerEpisode: options.maxEventsPerEpisode ?? 10_000,
      maxCachedHistories: 1000,
    });
    this.#activities = new ActivityRunner(this.#work, byName(registrations, 'activityTrigger'), invoke, {
      maxConcurrent: this.#maxConcurrent,
      lockDurationMs: options.activityLockDurationMs ?? 300_000,
      now: this.#now,
      logger: this.#logger,
      onProgress: () => this.wake(),
    });
  }

  /** Episodes replayed since construction (for benchmarks and diagnostics). */
  get episodeCount(): number {
    return this.#episodes.episodes;
  }

  /** Resumes everything pending in the database: releases stale activity claims and starts scheduling. */
  start(): void {
    if (this.#running) return;
    const released = this.#work.releaseAll();
    if (released > 0) this.#logger.log('information', `Embedded task hub: ${released} activity claim(s) from a previous run released.`);
    this.#running = true;
    this.#activities.start();
    this.wake();
  }

  /**
   * Stops taking work, lets the episode in progress commit, waits up to timeoutInMs (default 30000) for running
   * activities and releases the claims of those that did not finish. Pending waitForCompletion calls reject.
   */
  async stop(options: { timeoutInMs?: number } = {}): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#current;
    await this.#activities.stop(options.timeoutInMs ?? 30_000);
    this.#waiters.rejectAll(new Error(`The task hub '${this.taskHubName}' stopped.`));
  }

  /** Re-checks for due work now (call after moving an injected clock). */
  wake(): void {
    if (!this.#running) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#pump();
    });
  }

  startNew(orchestratorName: string, options: StartNewOptions = {}): string {
    if (!this.#orchestrators.has(orchestratorName)) {
      const known = [...this.#orchestrators.keys()].join(', ') || 'none';
      throw new DurableHubError(
        'OrchestratorNotFound',
        `The function '${orchestratorName}' doesn't exist or is not an orchestrator function (orchestrators: ${known}).`,
      );
    }
    const instanceId = options.instanceId ?? randomUUID().replaceAll('-', '');
    validateInstanceId(instanceId);
    const result = this.#store.createInstance(
      { instanceId, name: orchestratorName, inputJson: jsonOf(options.input, 'input') },
      this.#now(),
    );
    if (!result.created) {
      throw new DurableHubError(
        'InstanceExists',
        `An orchestration instance with ID '${instanceId}' already exists and is ${result.status}.`,
      );
    }
    this.#episodes.forget(instanceId);
    this.wake();
    return instanceId;
  }

  /** Queues an external event: 'notFound' for an unknown instance, 'gone' when it already finished. */
  raiseEvent(instanceId: string, eventName: string, data?: unknown): RaiseResult {
    if (eventName.length === 0) throw new DurableHubError('InvalidEventName', 'An event name must be a non-empty string.');
    const result = this.#store.raiseEvent(instanceId, eventName, jsonOf(data, 'event data'), this.#now());
    if (result === 'raised') this.wake();
    return result;
  }

  getStatus(instanceId: string, options: StatusOptions = {}): DurableStatus | undefined {
    const record = this.#store.getInstance(instanceId);
    if (!record) return undefined;
    return toDurableStatus(record, options, options.showHistory ? this.#store.loadHistory(instanceId) : undefined);
  }

  listStatuses(filter: InstanceFilter, page: { limit: number; offset: number }, options: StatusOptions = {}): DurableStatus[] {
    return this.#store.listInstances(filter, page.limit, page.offset).map((record) => toDurableStatus(record, options));
  }

  /** Terminates now: status Terminated (output = reason), pending work and events dropped, a parent is told. */
  terminate(instanceId: string, reason: string): TerminateResult {
    const result = this.#store.terminate(instanceId, reason, this.#now());
    if (result === 'terminated') this.#settled(instanceId);
    return result;
  }

  /** Deletes the instance with its history, inbox and work items; returns how many instances were deleted. */
  purge(instanceId: string): number {
    const deleted = this.#store.purge(instanceId);
    this.#settled(instanceId);
    return deleted;
  }

  /** Deletes every instance matching the filter (any status); returns how many. */
  purgeWhere(filter: InstanceFilter): number {
    const ids = this.#store.purgeWhere(filter);
    ids.forEach((id) => this.#settled(id));
    return ids.length;
  }

  /** Resolves with the final status once the instance is Completed, Failed or Terminated; rejects on timeout. */
  waitForCompletion(instanceId: string, options: { timeoutInMs: number }): Promise<DurableStatus> {
    return this.#waiters.wait(instanceId, options.timeoutInMs, () => this.getStatus(instanceId));
  }

  #settled(instanceId: string): void {
    this.#episodes.forget(instanceId);
    this.#waiters.check(instanceId);
    this.wake();
  }

  async #pump(): Promise<void> {
    if (!this.#running || this.#pumping) return;
    this.#pumping = true;
    clearTimeout(this.#timer);
    this.#current = this.#drain().catch((error: unknown) => {
      this.#logger.log('error', 'Embedded task hub: scheduler error.', { error: String(error) });
    });
    await this.#current;
    this.#current = undefined;
    this.#pumping = false;
    this.#armTimer();
  }

  async #drain(): Promise<void> {
    do {
      this.#again = false;
      this.#activities.fill();
      const now = this.#now();
      const due = this.#store.dueInstances(now, EPISODE_BATCH + this.#backoff.size);
      let ran = 0;
      for (const instanceId of due) {
        if (!this.#running || ran >= EPISODE_BATCH) break;
        if ((this.#backoff.get(instanceId) ?? 0) > now) continue;
        ran += 1;
        await this.#episode(instanceId);
      }
      if (ran >= EPISODE_BATCH) this.#again = true;
      if (this.#again) await new Promise<void>((resolve) => setImmediate(resolve));
    } while (this.#running && this.#again);
  }

  async #episode(instanceId: string): Promise<void> {
    try {
      const result = await this.#episodes.run(instanceId);
      this.#backoff.delete(instanceId);
      if (result.status !== undefined && isTerminal(result.status)) this.#waiters.check(instanceId);
      if (result.scheduled) this.#again = true;
    } catch (error) {
      this.#backoff.set(instanceId, this.#now() + this.#pollIntervalMs);
      this.#logger.log('error', 'Embedded task hub: episode failed; it will be retried.', { instanceId, error: String(error) });
    }
  }

  #armTimer(): void {
    if (!this.#running) return;
    const now = this.#now();
    let next = now + this.#pollIntervalMs;
    const visible = this.#store.nextVisibleAt(now);
    if (visible !== undefined) next = Math.min(next, visible);
    if (this.#activities.inFlight < this.#maxConcurrent) {
      const expiry = this.#work.nextLockExpiry(now);
      if (expiry !== undefined) next = Math.min(next, expiry);
    }
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.wake(), Math.max(0, next - now));
  }
}

function jsonOf(value: unknown, what: string): string {
  try {
    return toJsonText(value);
  } catch (error) {
    throw new DurableHubError(
      'InvalidInput',
      `The ${what} cannot be stored as JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
