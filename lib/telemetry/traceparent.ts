import { ROOT_CONTEXT, trace, TraceFlags, type Context, type SpanContext } from '@opentelemetry/api';

/**
 * W3C Trace Context `traceparent` (version 00): `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`.
 * Parsed by hand so propagation works whatever global propagator is (or is not) registered.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The remote span context a traceparent names, or undefined when it is absent or malformed (never throws). */
export function parseTraceparent(text: string | undefined | null): SpanContext | undefined {
  if (!text) return undefined;
  const m = TRACEPARENT.exec(text.trim().toLowerCase());
  if (!m) return undefined;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
  // version ff is invalid; version 00 allows nothing after the flags; later versions may append fields
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, traceFlags: parseInt(flags, 16) & TraceFlags.SAMPLED, isRemote: true };
}

export function formatTraceparent(spanContext: SpanContext): string {
  const flags = (spanContext.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/** A context whose parent is the traceparent's span (ROOT_CONTEXT when absent or malformed: a new trace). */
export function contextFromTraceparent(text: string | undefined | null, base: Context = ROOT_CONTEXT): Context {
  const parent = parseTraceparent(text);
  return parent ? trace.setSpanContext(base, parent) : base;
}

/** The traceparent of the span active in `ctx`, or undefined when there is none (or it is not valid). */
export function traceparentOf(ctx: Context): string | undefined {
  const spanContext = trace.getSpanContext(ctx);
  return spanContext && trace.isSpanContextValid(spanContext) ? formatTraceparent(spanContext) : undefined;
}
