import type { HostLogger } from '../logger.js';
import type { SqliteQueueEngine } from './queueEngine.js';

export interface SettleBufferOptions {
  /** Flush as soon as this many settlements are pending (default 500). */
  maxPending?: number;
  /** Flush at the latest this long after the first pending settlement (default 5 ms). */
  delayInMs?: number;
  logger: HostLogger;
}

/**
 * Collects completions and abandons from many invocations and applies them in one transaction, by count or
 * after a few milliseconds, so per-message invocations do not pay a transaction each. A crash before a flush
 * only means redelivery once the locks expire (at-least-once).
 */
export class SettleBuffer {
  private complete: string[] = [];
  private abandon: Array<{ lockToken: string; reason?: string }> = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly maxPending: number;
  private readonly delayInMs: number;

  constructor(
    private readonly engine: SqliteQueueEngine,
    private readonly options: SettleBufferOptions,
  ) {
    this.maxPending = options.maxPending ?? 500;
    this.delayInMs = options.delayInMs ?? 5;
  }

  get pending(): number {
    return this.complete.length + this.abandon.length;
  }

  addCompletions(lockTokens: string[]): void {
    for (const token of lockTokens) this.complete.push(token);
    this.schedule();
  }

  addAbandons(lockTokens: string[], reason: string): void {
    for (const lockToken of lockTokens) this.abandon.push({ lockToken, reason });
    this.schedule();
  }

  /** Applies everything pending now. A database failure is logged (the locks then expire and redeliver). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === 0) return;
    const batch = { complete: this.complete, abandon: this.abandon };
    this.complete = [];
    this.abandon = [];
    try {
      this.engine.settle(batch);
    } catch (error) {
      this.options.logger.log(
        'error',
        `Could not settle ${batch.complete.length + batch.abandon.length} messages; they will be redelivered when their locks expire.`,
        {
          error: error instanceof Error ? error.message : String(error),
        },
      );
    }
  }

  private schedule(): void {
    if (this.pending >= this.maxPending) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.delayInMs);
  }
}
