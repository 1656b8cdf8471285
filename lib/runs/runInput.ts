import { startRunTrace } from '../telemetry/index.js';

export interface RunOrchestrationInput {
  run_id: string;
  /** the run's `eval.run` span (when tracing): enqueueShard puts it on every case message, so one run is one trace */
  traceparent?: string;
}

/**
 * The input `runEvaluation` is started with. With tracing on, records the run's `eval.run` span (under the HTTP
 * request's trace when `parentTraceparent` is given) and carries its traceparent; with tracing off, just the id.
 */
export function runOrchestrationInput(runId: string, parentTraceparent?: string | null): RunOrchestrationInput {
  const traceparent = startRunTrace(runId, parentTraceparent);
  return traceparent ? { run_id: runId, traceparent } : { run_id: runId };
}
