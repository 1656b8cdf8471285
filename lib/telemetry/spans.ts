import { context, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { ATTRIBUTES, SPANS } from './names.js';
import { telemetryState } from './state.js';
import { contextFromTraceparent, traceparentOf } from './traceparent.js';

/**
 * Starts a span under `parent` (a context, or a traceparent string: a new trace when absent). The caller ends it.
 * Returns undefined while tracing is off, so callers write `span?.end()` and pay nothing.
 */
export function startSpan(
  name: string,
  parent: Context | string | undefined,
  attributes?: Attributes,
  startTime?: number,
): Span | undefined {
  const tracer = telemetryState.tracer;
  if (!tracer) return undefined;
  const ctx = typeof parent === 'string' || parent === undefined ? contextFromTraceparent(parent) : parent;
  return tracer.startSpan(name, { ...(attributes ? { attributes } : {}), ...(startTime === undefined ? {} : { startTime }) }, ctx);
}

/**
 * Records a span that already happened: it ended at `endTime` (epoch ms) after `durationMs`. For work measured
 * inside pure code (stages 1-2 run inline and report their own duration) without wrapping it.
 */
export function recordPastSpan(
  name: string,
  parent: Context | undefined,
  durationMs: number,
  endTime: number,
  attributes?: Attributes,
  failed = false,
): Span | undefined {
  const span = startSpan(name, parent, attributes, endTime - durationMs);
  if (!span) return undefined;
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(endTime);
  return span;
}

/** Ends a span, marking it failed (with the error recorded) when `error` is given. */
export function endSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}

/** The context in which `span` is the parent. */
export function contextWithSpan(span: Span, base: Context = context.active()): Context {
  return trace.setSpan(base, span);
}

/** The traceparent naming `span` (what goes into a queue message), or undefined without a span. */
export function traceparentOfSpan(span: Span | undefined): string | undefined {
  return span ? traceparentOf(trace.setSpan(context.active(), span)) : undefined;
}

/** The traceparent of the active context (a span the caller is running in), or undefined. */
export function activeTraceparent(): string | undefined {
  return telemetryState.tracer ? traceparentOf(context.active()) : undefined;
}

/**
 * The `eval.run` span: recorded when a run starts (under the HTTP request's trace when there is one) and ended at
 * once; every case of the run is traced under it, so one run is one trace. Returns its traceparent to carry in
 * the orchestration input and the queue messages, or undefined while tracing is off.
 */
export function startRunTrace(runId: string, parentTraceparent?: string | null, attributes?: Attributes): string | undefined {
  const span = startSpan(SPANS.run, parentTraceparent ?? undefined, { [ATTRIBUTES.runId]: runId, ...attributes });
  if (!span) return undefined;
  const traceparent = traceparentOfSpan(span);
  span.end();
  return traceparent;
}
