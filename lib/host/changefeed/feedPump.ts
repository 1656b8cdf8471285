import { setTimeout as sleep } from 'node:timers/promises';
import type { HostLogger } from '../logger.js';
import type { FunctionRegistration, InvokeFunction } from '../registration.js';
import { WakeSignal } from '../servicebus/index.js';
import type { ChangeLog, ChangeLogEntry } from './changeLog.js';
import { latestVersions } from './coalesce.js';
import type { ResolvedFeedTrigger } from './feedTriggerSettings.js';
import type { LeaseStore } from './leaseStore.js';
import { retryDelayMs } from './retryPolicy.js';

export interface FeedPumpDependencies {
  changeLog: ChangeLog;
  leases: LeaseStore;
  invoke: InvokeFunction;
  logger: HostLogger;
  now: () => number;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Feeds one change-feed-triggered function: reads the log after its checkpoint, one batch at a time, invokes the
 * function, and moves the checkpoint past the batch only when the invocation succeeded (or its retries ran out
 * and the batch was recorded as failed). At-least-once, in write order.
 */
export class FeedPump {
  private running = false;
  /** Set when stop() gave up waiting: whatever the running invocation does next must not touch the database. */
  private abandoned = false;
  private checkpoint = 0;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly signal = new WakeSignal();
  private stopController = new AbortController();
  private stopListening: () => void = () => undefined;

  constructor(
    readonly registration: FunctionRegistration,
    readonly trigger: ResolvedFeedTrigger,
    private readonly deps: FeedPumpDependencies,
  ) {}

  /** Loads (or creates) the checkpoint: a new lease starts at 0 with startFromBeginning, else at the log's end. */
  start(): void {
    if (this.running) return;
    const { leaseId, containerName, startFromBeginning } = this.trigger;
    const saved = this.deps.leases.get(leaseId, containerName);
    if (saved === undefined) {
      this.checkpoint = startFromBeginning ? 0 : this.deps.changeLog.latestSeq(containerName);
      this.deps.leases.save(leaseId, containerName, this.checkpoint, this.deps.now());
    } else {
      this.checkpoint = saved;
    }
    this.running = true;
    this.abandoned = false;
    this.stopController = new AbortController();
    this.stopListening = this.deps.changeLog.onAppend(containerName, () => this.signal.notify());
    this.loopDone = this.loop();
  }

  /** Stops reading; waits until `deadline` (epoch ms) for the batch in flight, whose checkpoint then stays put. */
  async stop(deadline: number): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopListening();
    this.stopController.abort();
    this.signal.notify();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, deadline - Date.now()))));
    const gaveUpWaiting = await Promise.race([this.loopDone.then(() => false), timedOut]);
    clearTimeout(timer);
    if (gaveUpWaiting) this.abandoned = true;
  }

  private async loop(): Promise<void> {
    const { containerName, maxItemsPerInvocation, pollDelayMs } = this.trigger;
    while (this.running) {
      let entries: ChangeLogEntry[];
      try {
        entries = this.deps.changeLog.read(containerName, this.checkpoint, maxItemsPerInvocation);
      } catch (error) {
        this.log('error', 'Reading the change log failed; retrying.', error);
        await this.pause(Math.max(pollDelayMs, 1_000));
        continue;
      }
      if (entries.length === 0) {
        await this.signal.wait(pollDelayMs);
        continue;
      }
      if (!(await this.deliver(entries))) return;
    }
  }

  /** Invokes until success or give-up, then checkpoints; false when stopped first (checkpoint unchanged). */
  private async deliver(entries: ChangeLogEntry[]): Promise<boolean> {
    const docs = latestVersions(entries);
    const lastSeq = entries[entries.length - 1]!.seq;
    for (let retry = 1; ; retry += 1) {
      try {
        await this.deps.invoke(this.registration, docs);
        if (this.abandoned) return false;
        this.saveCheckpoint(lastSeq);
        return true;
      } catch (error) {
        if (this.abandoned) return false;
        const delay = retryDelayMs(this.trigger.retry, retry);
        if (delay === undefined) {
          this.giveUp(entries, retry, error);
          return true;
        }
        this.log(
          'warning',
          `Function "${this.registration.name}" failed on ${docs.length} change(s); retry ${retry} in ${delay} ms.`,
          error,
        );
        if (!this.running || !(await this.pause(delay))) return false;
      }
    }
  }

  private saveCheckpoint(seq: number): void {
    this.checkpoint = seq;
    try {
      this.deps.leases.save(this.trigger.leaseId, this.trigger.containerName, seq, this.deps.now());
    } catch (error) {
      this.log('error', 'Saving the checkpoint failed; after a restart this batch is delivered again.', error);
    }
  }

  private giveUp(entries: ChangeLogEntry[], attempts: number, error: unknown): void {
    const batch = {
      leaseId: this.trigger.leaseId,
      containerName: this.trigger.containerName,
      firstSeq: entries[0]!.seq,
      lastSeq: entries[entries.length - 1]!.seq,
      documentIds: [...new Set(entries.map((e) => e.id))],
      attempts,
      error: describeError(error),
      failedAt: new Date(this.deps.now()),
    };
    this.log(
      'error',
      `Function "${this.registration.name}" gave up on changes ${batch.firstSeq}..${batch.lastSeq} after ${attempts} attempts; recorded in cf_failed_batches.`,
      error,
    );
    try {
      this.deps.leases.giveUp(batch);
      this.checkpoint = batch.lastSeq;
    } catch (saveError) {
      this.log('error', 'Recording the failed batch failed; it will be delivered again.', saveError);
    }
  }

  /** Waits `ms` unless stopped first; resolves false when stopped. */
  private async pause(ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: this.stopController.signal });
      return true;
    } catch {
      return false;
    }
  }

  private log(level: 'warning' | 'error', message: string, error: unknown): void {
    this.deps.logger.log(level, message, {
      functionName: this.registration.name,
      containerName: this.trigger.containerName,
      leaseId: this.trigger.leaseId,
      error: describeError(error),
    });
  }
}
