/** A target's circuit breaker as the run view and the queue workers see it (lib/resilience implements the breaker). */
export type CircuitState = 'closed' | 'open' | 'half_open';

/** The state for telemetry. `retry_in_ms` is set while open: when the next probe will be admitted. */
export interface CircuitSnapshot {
  state: CircuitState;
  consecutive_failures: number;
  retry_in_ms?: number;
}
