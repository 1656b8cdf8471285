import { randomBytes } from 'node:crypto';

/**
 * The trace context of one function invocation, as the Functions host gives it to the worker
 * (`InvocationContext.traceContext`): the trigger's incoming W3C `traceparent` (an HTTP request's header, a Service
 * Bus message's `traceparent` or `Diagnostic-Id` application property, the one trace a whole batch shares), or, when
 * none arrives, a new trace, so every invocation has one and every log line of it carries its ids. The embedded host
 * records no span of its own: the invocation continues the incoming span context as it is.
 */
export interface InvocationTrace {
  traceParent: string;
  traceId: string;
  spanId: string;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const INVALID_TRACE_ID = '0'.repeat(32);
const INVALID_SPAN_ID = '0'.repeat(16);

/** A valid version-00 traceparent's ids, or undefined (all-zero ids are invalid by the W3C spec). */
export function parseTraceParent(text: unknown): Omit<InvocationTrace, 'traceParent'> | undefined {
  if (typeof text !== 'string') return undefined;
  const m = TRACEPARENT.exec(text.trim().toLowerCase());
  if (!m || m[1] === INVALID_TRACE_ID || m[2] === INVALID_SPAN_ID) return undefined;
  return { traceId: m[1]!, spanId: m[2]! };
}

/** The incoming trace when valid, else a new sampled root trace. */
export function invocationTrace(incoming: unknown): InvocationTrace {
  const parsed = parseTraceParent(incoming);
  if (parsed) return { ...parsed, traceParent: `00-${parsed.traceId}-${parsed.spanId}-01` };
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceParent: `00-${traceId}-${spanId}-01` };
}

const propertyTrace = (properties: unknown): unknown => {
  if (typeof properties !== 'object' || properties === null) return undefined;
  const p = properties as Record<string, unknown>;
  return p.traceparent ?? p['Diagnostic-Id'];
};

/**
 * The incoming traceparent in a trigger's metadata: a message's application properties, or, for a batch, the trace
 * all its messages share (a batch mixing traces has none of its own: each message's work continues its own trace).
 */
export function incomingTraceParent(triggerMetadata: Record<string, unknown> | undefined): unknown {
  if (!triggerMetadata) return undefined;
  if (triggerMetadata.applicationProperties !== undefined) return propertyTrace(triggerMetadata.applicationProperties);
  const batch = triggerMetadata.applicationPropertiesArray;
  if (!Array.isArray(batch) || batch.length === 0) return undefined;
  const parents = batch.map(propertyTrace);
  const traceIds = new Set(parents.map((p) => parseTraceParent(p)?.traceId));
  return traceIds.size === 1 && !traceIds.has(undefined) ? parents[0] : undefined;
}
