import { isTerminal, type DurableStatus } from './status.js';

interface Waiter {
  read: () => DurableStatus | undefined;
  resolve: (status: DurableStatus) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** Callers waiting for instances to finish; the hub calls check(instanceId) whenever one may have. */
export class WaiterRegistry {
  readonly #waiters = new Map<string, Set<Waiter>>();

  wait(instanceId: string, timeoutInMs: number, read: () => DurableStatus | undefined): Promise<DurableStatus> {
    const initial = read();
    if (!initial) return Promise.reject(new Error(`No orchestration instance with ID '${instanceId}'.`));
    if (isTerminal(initial.runtimeStatus)) return Promise.resolve(initial);
    return new Promise<DurableStatus>((resolve, reject) => {
      const waiter: Waiter = {
        read,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#remove(instanceId, waiter);
          const status = read()?.runtimeStatus ?? 'purged';
          reject(new Error(`Orchestration instance '${instanceId}' did not finish within ${timeoutInMs} ms (runtimeStatus: ${status}).`));
        }, timeoutInMs),
      };
      const set = this.#waiters.get(instanceId) ?? new Set<Waiter>();
      set.add(waiter);
      this.#waiters.set(instanceId, set);
    });
  }

  check(instanceId: string): void {
    const set = this.#waiters.get(instanceId);
    if (!set) return;
    for (const waiter of set) {
      const status = waiter.read();
      if (status && !isTerminal(status.runtimeStatus)) continue;
      this.#remove(instanceId, waiter);
      if (status) waiter.resolve(status);
      else waiter.reject(new Error(`Orchestration instance '${instanceId}' was purged before it finished.`));
    }
  }

  rejectAll(error: Error): void {
    for (const [instanceId, set] of this.#waiters) {
      for (const waiter of set) {
        this.#remove(instanceId, waiter);
        waiter.reject(error);
      }
    }
  }

  #remove(instanceId: string, waiter: Waiter): void {
    clearTimeout(waiter.timer);
    const set = this.#waiters.get(instanceId);
    set?.delete(waiter);
    if (set?.size === 0) this.#waiters.delete(instanceId);
  }
}
