/**
 * A one-slot wake-up for a polling loop: `wait(ms)` resolves on `notify()` or after `ms`, whichever is first.
 * A notify with nobody waiting is remembered, so a wake-up between "found nothing" and "wait" is not lost.
 */
export class WakeSignal {
  private pending = false;
  private waiter: { resolve: () => void; timer: NodeJS.Timeout } | undefined;

  notify(): void {
    const waiter = this.waiter;
    if (!waiter) {
      this.pending = true;
      return;
    }
    this.waiter = undefined;
    clearTimeout(waiter.timer);
    waiter.resolve();
  }

  wait(timeoutMs: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    if (this.waiter) throw new Error('WakeSignal supports one waiter at a time.');
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve();
      }, timeoutMs);
      this.waiter = { resolve, timer };
    });
  }
}
