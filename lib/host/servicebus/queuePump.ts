import { setImmediate as nextTurn } from 'node:timers/promises';
import type { HostLogger } from '../logger.js';
import type { FunctionRegistration, InvokeFunction } from '../registration.js';
import { LockRenewer } from './lockRenewer.js';
import type { SqliteQueueEngine } from './queueEngine.js';
import type { ResolvedQueueTrigger } from './queueTriggerSettings.js';
import type { SettleBuffer } from './settleBuffer.js';
import { batchMetadata, singleMessageMetadata } from './triggerMetadata.js';
import type { ReceivedMessage } from './types.js';
import { WakeSignal } from './wakeSignal.js';

export interface QueuePumpDependencies {
  engine: SqliteQueueEngine;
  invoke: InvokeFunction;
  settle: SettleBuffer;
  logger: HostLogger;
  pollIntervalMs: number;
}

/** Error text kept with an abandoned message (and quoted in its dead-letter description). */
function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 1_000 ? `${text.slice(0, 997)}...` : text;
}

/**
 * Feeds one queue-triggered function: receives up to `concurrency` units (a message for 'one', a batch of up to
 * `unitSize` for 'many') in one transaction, invokes each unit, and hands the outcome to the settle buffer
 * (complete on success, abandon on throw). Sleeps while the queue is empty until a send wakes it or the poll
 * interval passes.
 */
export class QueuePump {
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly inFlight = new Map<number, { tokens: string[]; done: Promise<void> }>();
  private nextUnitId = 0;
  private waitingForSlot = false;
  private readonly signal = new WakeSignal();
  private readonly renewer: LockRenewer;
  private stopListening: () => void = () => undefined;
  /** 'many' with minMessageBatchSize: received (locked) messages gathered until the batch is big or old enough */
  private gathered: ReceivedMessage[] = [];
  private gatheredSince = 0;

  constructor(
    readonly registration: FunctionRegistration,
    readonly trigger: ResolvedQueueTrigger,
    private readonly deps: QueuePumpDependencies,
  ) {
    this.renewer = new LockRenewer(deps.engine, trigger.lockDurationMs, trigger.maxAutoLockRenewalDurationMs, deps.logger);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopListening = this.deps.engine.onMessagesAvailable(this.trigger.queueName, () => this.signal.notify());
    this.loopDone = this.loop();
  }

  /**
   * Stops receiving, waits until `deadline` (epoch ms) for running invocations, and returns the lock tokens of
   * those that did not finish: their late results are ignored and the caller releases them.
   */
  async stop(deadline: number): Promise<string[]> {
    this.running = false;
    this.stopListening();
    this.signal.notify();
    await this.loopDone;
    const running = [...this.inFlight.values()].map((unit) => unit.done);
    if (running.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
      await Promise.race([Promise.allSettled(running), timeout]);
      clearTimeout(timer);
    }
    const unfinished = [...this.inFlight.values()].flatMap((unit) => unit.tokens).concat(this.gathered.map((m) => m.lockToken));
    this.inFlight.clear();
    this.gathered = [];
    this.renewer.stop();
    return unfinished;
  }

  private async loop(): Promise<void> {
    const { concurrency, unitSize, queueName, lockDurationMs } = this.trigger;
    while (this.running) {
      const free = concurrency - this.inFlight.size;
      if (free <= 0) {
        this.waitingForSlot = true;
        await this.signal.wait(this.deps.pollIntervalMs);
        this.waitingForSlot = false;
        await nextTurn(); // let other invocations finishing in this turn free their slots too
        continue;
      }
      let messages: ReceivedMessage[];
      try {
        messages = this.deps.engine.receive(queueName, {
          maxMessages: Math.max(0, free * unitSize - this.gathered.length),
          lockDurationMs,
        });
      } catch (error) {
        this.deps.logger.log('error', `Receiving from queue "${queueName}" failed; retrying.`, { error: describeError(error) });
        await this.signal.wait(Math.max(this.deps.pollIntervalMs, 1_000));
        continue;
      }
      // a message released after a crash runs alone (the engine hands it out alone): no gathering, no waiting
      if (messages.length === 1 && messages[0]!.releasedAfterCrash) {
        this.dispatch(messages);
        continue;
      }
      if (this.trigger.minBatchSize > 1) {
        if (await this.gather(messages)) continue;
        messages = this.gathered;
        this.gathered = [];
      }
      for (let i = 0; i < messages.length; i += unitSize) this.dispatch(messages.slice(i, i + unitSize));
      if (messages.length < free * unitSize) await this.signal.wait(this.deps.pollIntervalMs);
    }
  }

  /**
   * minMessageBatchSize: keeps received messages (still locked) until at least minBatchSize are gathered or the
   * oldest has waited maxBatchWaitTimeMs, as Azure's batch trigger does. Returns true while still gathering
   * (after waiting for more messages), false when the gathered messages should be dispatched now.
   */
  private async gather(messages: ReceivedMessage[]): Promise<boolean> {
    if (messages.length > 0 && this.gathered.length === 0) this.gatheredSince = Date.now();
    this.gathered.push(...messages);
    if (this.gathered.length === 0) {
      await this.signal.wait(this.deps.pollIntervalMs);
      return true;
    }
    const waited = Date.now() - this.gatheredSince;
    if (this.gathered.length >= this.trigger.minBatchSize || waited >= this.trigger.maxBatchWaitTimeMs || !this.running) return false;
    await this.signal.wait(Math.min(this.deps.pollIntervalMs, this.trigger.maxBatchWaitTimeMs - waited));
    return true;
  }

  private dispatch(messages: ReceivedMessage[]): void {
    const id = this.nextUnitId++;
    const tokens = messages.map((m) => m.lockToken);
    if (this.trigger.cardinality === 'one') this.renewer.track(tokens[0]!, messages[0]!.lockedUntilUtc.getTime());
    const unit = { tokens, done: Promise.resolve() };
    this.inFlight.set(id, unit); // before run(): a function that throws synchronously settles within run()
    unit.done = this.run(id, messages, tokens);
  }

  private async run(id: number, messages: ReceivedMessage[], tokens: string[]): Promise<void> {
    const one = this.trigger.cardinality === 'one';
    let failure: { error: unknown } | undefined;
    try {
      await (one
        ? this.deps.invoke(this.registration, messages[0]!.body, { triggerMetadata: singleMessageMetadata(messages[0]!) })
        : this.deps.invoke(
            this.registration,
            messages.map((m) => m.body),
            { triggerMetadata: batchMetadata(messages) },
          ));
    } catch (error) {
      failure = { error };
    }
    if (!this.inFlight.delete(id)) return; // released at shutdown: the host gave the messages back
    if (one) this.renewer.untrack(tokens[0]!);
    if (failure) {
      const reason = describeError(failure.error);
      this.deps.logger.log('warning', `Function "${this.registration.name}" failed; abandoning ${tokens.length} message(s).`, {
        functionName: this.registration.name,
        queueName: this.trigger.queueName,
        messageIds: messages.map((m) => m.messageId),
        deliveryCounts: messages.map((m) => m.deliveryCount),
        error: reason,
      });
      this.deps.settle.addAbandons(tokens, reason);
    } else {
      this.deps.settle.addCompletions(tokens);
    }
    if (this.waitingForSlot) this.signal.notify();
  }
}
