import type { HostLogger } from '../logger.js';
import type { SqliteQueueEngine } from './queueEngine.js';

interface TrackedLock {
  lockedUntil: number;
  renewUntil: number;
}

/**
 * Keeps the locks of running single-message invocations alive, as the Functions host does: a timer every quarter
 * of the lock duration renews (in one transaction) every lock with half its duration or less left, until
 * maxAutoLockRenewalDurationMs after it was first taken.
 */
export class LockRenewer {
  private readonly locks = new Map<string, TrackedLock>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly engine: SqliteQueueEngine,
    private readonly lockDurationMs: number,
    private readonly maxRenewalMs: number,
    private readonly logger: HostLogger,
  ) {}

  track(lockToken: string, lockedUntil: number): void {
    if (this.maxRenewalMs === 0) return;
    this.locks.set(lockToken, { lockedUntil, renewUntil: this.engine.now() + this.maxRenewalMs });
    this.timer ??= setInterval(() => this.renewDue(), Math.max(5, Math.floor(this.lockDurationMs / 4)));
  }

  untrack(lockToken: string): void {
    this.locks.delete(lockToken);
    if (this.locks.size === 0) this.stop();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private renewDue(): void {
    const now = this.engine.now();
    const due: string[] = [];
    for (const [token, lock] of this.locks) {
      if (lock.lockedUntil - now > this.lockDurationMs / 2) continue;
      if (now >= lock.renewUntil) this.locks.delete(token);
      else due.push(token);
    }
    if (due.length === 0) return;
    try {
      const lockedUntil = this.engine.renewLock(due, { lockDurationMs: this.lockDurationMs }).getTime();
      for (const token of due) {
        const lock = this.locks.get(token);
        if (lock) lock.lockedUntil = lockedUntil;
      }
    } catch (error) {
      this.logger.log('warning', `Could not renew ${due.length} message locks.`, {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
