import { setImmediate } from 'node:timers/promises';

/**
 * Lets the event loop run its other work (HTTP requests, queue triggers, timers) between two pages of a long scan.
 * The embedded host runs everything on one thread and SQLite answers synchronously, so an async iterator over the
 * database otherwise runs as one unbroken chain of microtasks: a 400,000-scorecard export held every API request
 * (and the run's own status poll) until it ended. One macrotask per page costs microseconds.
 */
export function yieldToHost(): Promise<void> {
  return setImmediate();
}
