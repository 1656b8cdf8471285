import { silentLogger, type HostLogger } from '../logger.js';
import type { FunctionRegistration, InvokeFunction } from '../registration.js';
import type { SqliteQueueEngine } from './queueEngine.js';
import { QueuePump } from './queuePump.js';
import { resolveQueueTrigger, type QueueTriggerSettings } from './queueTriggerSettings.js';
import { SettleBuffer } from './settleBuffer.js';
import { wholeNumberOption } from './validation.js';

export interface QueueTriggerHostOptions {
  /** Settings per queue name; they override `defaults`. */
  queues?: Record<string, QueueTriggerSettings>;
  /** Settings for every queue (host.json `extensions.serviceBus` in Azure). */
  defaults?: QueueTriggerSettings;
  /** How often an idle trigger looks for messages sent by other connections or that became due (default 50 ms). */
  pollIntervalMs?: number;
  /** Settlements are applied in one transaction per this many (default 500) ... */
  settleBatchSize?: number;
  /** ... or after this delay (default 5 ms). */
  settleDelayInMs?: number;
  /**
   * On start, release the locks left on this host's queues by a previous (crashed) process so those messages are
   * redelivered at once instead of after their lock expires (default true; the host owns the database).
   */
  releaseLocksOnStart?: boolean;
  logger?: HostLogger;
}

/** Serves the serviceBusTrigger registrations from a SqliteQueueEngine: one pump per function. */
export class QueueTriggerHost {
  private readonly registrations: FunctionRegistration[] = [];
  private pumps: QueuePump[] = [];
  private readonly settle: SettleBuffer;
  private readonly logger: HostLogger;
  private readonly pollIntervalMs: number;
  private running = false;

  constructor(
    private readonly engine: SqliteQueueEngine,
    private readonly invoke: InvokeFunction,
    private readonly options: QueueTriggerHostOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    this.pollIntervalMs = wholeNumberOption('pollIntervalMs', options.pollIntervalMs, 50);
    this.settle = new SettleBuffer(engine, {
      maxPending: wholeNumberOption('settleBatchSize', options.settleBatchSize, 500),
      delayInMs: wholeNumberOption('settleDelayInMs', options.settleDelayInMs, 5, 0),
      logger: this.logger,
    });
  }

  /** Registers a serviceBusTrigger function (validated now: bad configuration throws); starts it if running. */
  add(registration: FunctionRegistration): void {
    if (this.registrations.some((r) => r.name === registration.name)) {
      throw new Error(`Function "${registration.name}" is already registered with the queue trigger host.`);
    }
    const pump = this.createPump(registration);
    this.registrations.push(registration);
    if (this.running) {
      this.pumps.push(pump);
      pump.start();
    }
  }

  /** Starts receiving for every registered function. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.pumps = this.registrations.map((r) => this.createPump(r));
    if (this.options.releaseLocksOnStart !== false) {
      for (const queueName of new Set(this.pumps.map((pump) => pump.trigger.queueName))) this.releaseLocks(queueName);
    }
    for (const pump of this.pumps) pump.start();
  }

  /**
   * Stops receiving, waits up to `timeoutInMs` (default 30 s) for running invocations, settles what finished,
   * and gives back the messages of invocations still running without counting that delivery.
   */
  async stop(options: { timeoutInMs?: number } = {}): Promise<void> {
    if (!this.running) return;
    this.running = false;
    const deadline = Date.now() + wholeNumberOption('timeoutInMs', options.timeoutInMs, 30_000, 0);
    const unfinished = (await Promise.all(this.pumps.map((pump) => pump.stop(deadline)))).flat();
    this.pumps = [];
    this.settle.flush();
    if (unfinished.length === 0) return;
    this.logger.log('warning', `Releasing ${unfinished.length} message(s) whose invocations did not finish before shutdown.`);
    try {
      this.engine.abandon(unfinished, { countDelivery: false, reason: 'Host shutdown' });
    } catch (error) {
      this.logger.log('error', 'Could not release in-flight messages; they will be redelivered when their locks expire.', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private releaseLocks(queueName: string): void {
    try {
      const released = this.engine.releaseLocks(queueName);
      if (released > 0) this.logger.log('warning', `Released ${released} message lock(s) left on queue "${queueName}" by a previous run.`);
    } catch (error) {
      this.logger.log('error', `Could not release old locks on queue "${queueName}"; they expire on their own.`, {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Invocations running now per function name (for tests and diagnostics). */
  inFlight(): Record<string, number> {
    return Object.fromEntries(this.pumps.map((pump) => [pump.registration.name, pump.inFlightCount]));
  }

  private createPump(registration: FunctionRegistration): QueuePump {
    const trigger = resolveQueueTrigger(registration, this.options.queues ?? {}, this.options.defaults ?? {}, this.engine.lockDurationMs);
    return new QueuePump(registration, trigger, {
      engine: this.engine,
      invoke: this.invoke,
      settle: this.settle,
      logger: this.logger,
      pollIntervalMs: this.pollIntervalMs,
    });
  }
}
