import { z } from 'zod';
import type { CircuitBreakerOptions } from '../resilience/index.js';

const Whole = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const BreakerEnvSchema = z.object({
  /** consecutive failed cases that open a target's circuit (default 5) */
  EVALP_CIRCUIT_FAILURE_THRESHOLD: Whole(1, 1_000).optional(),
  /** how long an open circuit refuses calls before one probe, in ms (default 30,000) */
  EVALP_CIRCUIT_OPEN_MS: Whole(0, 3_600_000).optional(),
});

/**
 * The per-target circuit breaker settings from the app settings (both hosts). A bad value throws naming the
 * setting and the reason, so the platform refuses to start rather than run with a silently different breaker.
 */
export function breakerSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Pick<CircuitBreakerOptions, 'failureThreshold' | 'openDurationInMs'> {
  const raw = {
    EVALP_CIRCUIT_FAILURE_THRESHOLD: env.EVALP_CIRCUIT_FAILURE_THRESHOLD?.trim() || undefined,
    EVALP_CIRCUIT_OPEN_MS: env.EVALP_CIRCUIT_OPEN_MS?.trim() || undefined,
  };
  const parsed = BreakerEnvSchema.safeParse(raw);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const { EVALP_CIRCUIT_FAILURE_THRESHOLD: failureThreshold, EVALP_CIRCUIT_OPEN_MS: openDurationInMs } = parsed.data;
  return {
    ...(failureThreshold === undefined ? {} : { failureThreshold }),
    ...(openDurationInMs === undefined ? {} : { openDurationInMs }),
  };
}
