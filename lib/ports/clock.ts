/** Time, injectable for tests. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Milliseconds since `started` (a `performance.now()` reading), to the microsecond. */
export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}
