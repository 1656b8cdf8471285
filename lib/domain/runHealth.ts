import { z } from 'zod';

/**
 * How a run's processing is going, beside its statistics: its target's circuit breaker (in the answering
 * process), its messages waiting or put off in the stage queues, its dead letters and the last error. Shown by
 * GET /runs/{id} and `evalp status`; the watchdog marks a run `stalled` from the same figures.
 */
export const RunHealthSchema = z.object({
  /** the target's circuit breaker in this process; null before its first call here */
  circuit: z
    .object({
      state: z.enum(['closed', 'open', 'half_open']),
      consecutive_failures: z.number().int().nonnegative(),
      retry_in_ms: z.number().int().nonnegative().optional(),
    })
    .nullable(),
  /** messages of the run visible or being processed in the stage queues */
  waiting: z.number().int().nonnegative(),
  /** cases put off (open circuit) or waiting for a delayed redelivery */
  deferred: z.number().int().nonnegative(),
  /** dead letters of the run: it cannot finish until they are replayed (`evalp dlq replay`) or it is cancelled */
  dead_lettered: z.number().int().nonnegative(),
  /** the latest dead letter's reason and description, else the run's error; null when none */
  last_error: z.string().nullable(),
});
export type RunHealth = z.infer<typeof RunHealthSchema>;
