import type Database from 'better-sqlite3';
import { silentLogger, type HostLogger } from '../logger.js';
import type { FunctionRegistration, InvokeFunction } from '../registration.js';
import { wholeNumberOption } from '../servicebus/index.js';
import type { ChangeLog } from './changeLog.js';
import { FeedPump } from './feedPump.js';
import { resolveFeedTrigger } from './feedTriggerSettings.js';
import { LeaseStore, type FailedBatch } from './leaseStore.js';

export interface ChangeFeedTriggerHostOptions {
  /**
   * Idle wait between looks at the log, for every trigger, instead of each trigger's `feedPollDelay` (Azure's
   * default 5,000 ms). Appends through the same ChangeLog instance wake the triggers at once either way, so this
   * only matters for writes from other connections; the embedded host passes e.g. 50.
   */
  pollIntervalMs?: number;
  now?: () => number;
  logger?: HostLogger;
}

/** Serves the cosmosDBTrigger registrations from the change log: one pump and one checkpoint per function. */
export class ChangeFeedTriggerHost {
  private readonly registrations: FunctionRegistration[] = [];
  private pumps: FeedPump[] = [];
  private readonly leases: LeaseStore;
  private readonly logger: HostLogger;
  private readonly pollIntervalMs: number | undefined;
  private running = false;

  constructor(
    db: Database.Database,
    private readonly changeLog: ChangeLog,
    private readonly invoke: InvokeFunction,
    private readonly options: ChangeFeedTriggerHostOptions = {},
  ) {
    this.leases = new LeaseStore(db);
    this.logger = options.logger ?? silentLogger;
    this.pollIntervalMs =
      options.pollIntervalMs === undefined ? undefined : wholeNumberOption('pollIntervalMs', options.pollIntervalMs, 50);
  }

  /** Registers a cosmosDBTrigger function (validated now: bad configuration throws); starts it if running. */
  add(registration: FunctionRegistration): void {
    if (this.registrations.some((r) => r.name === registration.name)) {
      throw new Error(`Function "${registration.name}" is already registered with the change feed trigger host.`);
    }
    const pump = this.createPump(registration);
    this.registrations.push(registration);
    if (this.running) {
      this.pumps.push(pump);
      pump.start();
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.pumps = this.registrations.map((r) => this.createPump(r));
    for (const pump of this.pumps) pump.start();
  }

  /** Stops reading and waits up to `timeoutInMs` (default 30 s) for batches in flight; unfinished ones are redelivered. */
  async stop(options: { timeoutInMs?: number } = {}): Promise<void> {
    if (!this.running) return;
    this.running = false;
    const deadline = Date.now() + wholeNumberOption('timeoutInMs', options.timeoutInMs, 30_000, 0);
    await Promise.all(this.pumps.map((pump) => pump.stop(deadline)));
    this.pumps = [];
  }

  /** Batches given up after their retries ran out (only with an explicit `retry` whose maxRetryCount is not -1). */
  listFailedBatches(): FailedBatch[] {
    return this.leases.listFailed();
  }

  private createPump(registration: FunctionRegistration): FeedPump {
    return new FeedPump(registration, resolveFeedTrigger(registration, this.pollIntervalMs), {
      changeLog: this.changeLog,
      leases: this.leases,
      invoke: this.invoke,
      logger: this.logger,
      now: this.options.now ?? Date.now,
    });
  }
}
