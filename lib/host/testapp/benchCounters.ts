/** Names and counters shared by the bench app and `bench/host.bench.ts` (no registrations here, so importable first). */
export const BENCH = { manyQueue: 'bench-many', oneQueue: 'bench-one', fanOut: 'benchFanOut', activity: 'benchNoop' } as const;

/** Messages handled per queue trigger, and when (performance.now()) each trigger handled its first one. */
export const handled = { many: 0, one: 0 };
export const firstHandledAt = { many: 0, one: 0 };
