import type { Counter, Gauge, Histogram, ObservableGauge, Tracer } from '@opentelemetry/api';

/** The platform's metric instruments (DESIGN §8). */
export interface Instruments {
  tasksProcessed: Counter;
  tasksFailed: Counter;
  stageDuration: Histogram;
  queueDepth: ObservableGauge;
  circuitState: Gauge;
  llmTokens: Counter;
  llmLatency: Histogram;
  runsStarted: Counter;
  runsFinished: Counter;
}

/**
 * Process-wide telemetry state. Both fields stay undefined while telemetry is off, which is what the hot paths
 * test (one property read) before doing anything that allocates.
 */
export const telemetryState: { tracer: Tracer | undefined; instruments: Instruments | undefined } = {
  tracer: undefined,
  instruments: undefined,
};

/** True when spans are recorded (Application Insights, console, or a test provider). */
export function isTracing(): boolean {
  return telemetryState.tracer !== undefined;
}

/** True when metrics are recorded. */
export function isMetering(): boolean {
  return telemetryState.instruments !== undefined;
}
