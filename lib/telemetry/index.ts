export { SPANS, METRICS, ATTRIBUTES, type StageSpanKey } from './names.js';
export { isTracing, isMetering } from './state.js';
export { parseTraceparent, formatTraceparent, contextFromTraceparent, traceparentOf } from './traceparent.js';
export { logFields, type LogFieldValues } from './logFields.js';
export { startSpan, recordPastSpan, endSpan, contextWithSpan, traceparentOfSpan, activeTraceparent, startRunTrace } from './spans.js';
export {
  recordTasks,
  recordStageDuration,
  recordCircuitState,
  recordLlmCall,
  recordRunStarted,
  recordRunFinished,
  registerQueueDepthSource,
  type QueueDepthSource,
} from './instruments.js';
export {
  startTelemetry,
  activeTelemetry,
  telemetryMode,
  samplingRatio,
  TELEMETRY_SETTINGS,
  type TelemetryHandle,
  type TelemetryMode,
  type TelemetrySettings,
  type StartTelemetryOptions,
} from './setup.js';
