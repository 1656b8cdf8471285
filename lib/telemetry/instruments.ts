import type { Attributes, Meter, ObservableResult } from '@opentelemetry/api';
import { ATTRIBUTES, METRICS } from './names.js';
import { telemetryState, type Instruments } from './state.js';

/** A source of queue depths (active messages by queue name), read when metrics are collected. */
export type QueueDepthSource = () => Readonly<Record<string, number>> | Promise<Readonly<Record<string, number>>>;

const queueDepthSources = new Set<QueueDepthSource>();

export function createInstruments(meter: Meter): Instruments {
  const queueDepth = meter.createObservableGauge(METRICS.queueDepth, { description: 'active messages per stage queue' });
  queueDepth.addCallback(async (result: ObservableResult) => {
    for (const source of queueDepthSources) {
      const depths = await source();
      for (const [queue, depth] of Object.entries(depths)) result.observe(depth, { [ATTRIBUTES.queue]: queue });
    }
  });
  return {
    tasksProcessed: meter.createCounter(METRICS.tasksProcessed, { description: 'queue messages processed by the stage workers' }),
    tasksFailed: meter.createCounter(METRICS.tasksFailed, { description: 'queue messages that could not be processed' }),
    stageDuration: meter.createHistogram(METRICS.stageDuration, { description: 'duration of one waterfall stage of one case', unit: 'ms' }),
    queueDepth,
    circuitState: meter.createGauge(METRICS.circuitState, {
      description: 'circuit breaker state per target: 0 closed, 1 half-open, 2 open',
    }),
    llmTokens: meter.createCounter(METRICS.llmTokens, { description: 'LLM tokens used by judges and targets' }),
    llmLatency: meter.createHistogram(METRICS.llmLatency, { description: 'duration of one LLM request', unit: 'ms' }),
    runsStarted: meter.createCounter(METRICS.runsStarted, { description: 'runs planned (their case list frozen)' }),
    runsFinished: meter.createCounter(METRICS.runsFinished, { description: 'runs finalized, by final status' }),
  };
}

// Constant attribute sets for the per-case calls, so recording allocates nothing.
const STAGE_ATTRIBUTES: Record<string, Attributes> = {};
const stageAttributes = (stage: string): Attributes => (STAGE_ATTRIBUTES[stage] ??= { [ATTRIBUTES.stage]: stage });

/** Messages a stage worker finished (and how many of them failed, with why). No-op while metrics are off. */
export function recordTasks(queue: string, processed: number, failed = 0, reason = 'unprocessable'): void {
  const i = telemetryState.instruments;
  if (!i) return;
  if (processed > 0) i.tasksProcessed.add(processed, { [ATTRIBUTES.queue]: queue });
  if (failed > 0) i.tasksFailed.add(failed, { [ATTRIBUTES.queue]: queue, [ATTRIBUTES.reason]: reason });
}

/** One stage of one case. No-op (and no allocation) while metrics are off. */
export function recordStageDuration(stage: string, durationMs: number): void {
  telemetryState.instruments?.stageDuration.record(durationMs, stageAttributes(stage));
}

const CIRCUIT_VALUES: Record<string, number> = { closed: 0, half_open: 1, open: 2 };

/** A target's breaker changed state ('closed' | 'half_open' | 'open'). */
export function recordCircuitState(targetId: string, state: string): void {
  telemetryState.instruments?.circuitState.record(CIRCUIT_VALUES[state] ?? -1, { [ATTRIBUTES.targetId]: targetId });
}

/** One LLM request of a judge or a target: tokens and latency. */
export function recordLlmCall(
  component: 'judge' | 'target',
  model: string,
  inputTokens: number,
  outputTokens: number,
  latencyMs: number,
): void {
  const i = telemetryState.instruments;
  if (!i) return;
  i.llmTokens.add(inputTokens, { [ATTRIBUTES.component]: component, [ATTRIBUTES.model]: model, [ATTRIBUTES.tokenType]: 'input' });
  i.llmTokens.add(outputTokens, { [ATTRIBUTES.component]: component, [ATTRIBUTES.model]: model, [ATTRIBUTES.tokenType]: 'output' });
  i.llmLatency.record(latencyMs, { [ATTRIBUTES.component]: component, [ATTRIBUTES.model]: model });
}

/** A run was planned (the orchestrator's planRun activity; a retried activity may count twice). */
export function recordRunStarted(trigger: string): void {
  telemetryState.instruments?.runsStarted.add(1, { [ATTRIBUTES.trigger]: trigger });
}

/** A run was finalized with this status (the portal's failed-run and missed-nightly alerts read it). */
export function recordRunFinished(status: string, trigger: string): void {
  telemetryState.instruments?.runsFinished.add(1, { [ATTRIBUTES.status]: status, [ATTRIBUTES.trigger]: trigger });
}

/** Adds a queue-depth source for `eval.queue.depth` (the embedded host's queue engine); returns its removal. */
export function registerQueueDepthSource(source: QueueDepthSource): () => void {
  queueDepthSources.add(source);
  return () => queueDepthSources.delete(source);
}
