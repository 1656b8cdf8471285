import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { contextFromTraceparent, formatTraceparent, parseTraceparent, traceparentOf } from './traceparent.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

describe('traceparent', () => {
  it.each([
    ['sampled', `00-${TRACE}-${SPAN}-01`, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED, isRemote: true }],
    ['not sampled', `00-${TRACE}-${SPAN}-00`, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.NONE, isRemote: true }],
    ['upper case and spaces', `  00-${TRACE.toUpperCase()}-${SPAN}-01 `, { traceId: TRACE, spanId: SPAN, traceFlags: 1, isRemote: true }],
    ['unknown flag bits dropped', `00-${TRACE}-${SPAN}-ff`, { traceId: TRACE, spanId: SPAN, traceFlags: 1, isRemote: true }],
    ['a later version with extra fields', `01-${TRACE}-${SPAN}-01-extra`, { traceId: TRACE, spanId: SPAN, traceFlags: 1, isRemote: true }],
  ])('parses %s', (_name, text, expected) => {
    expect(parseTraceparent(text)).toEqual(expected);
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['garbage', 'not a traceparent'],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['version 00 with extra fields', `00-${TRACE}-${SPAN}-01-extra`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
  ])('rejects %s', (_name, text) => {
    expect(parseTraceparent(text)).toBeUndefined();
    expect(contextFromTraceparent(text)).toBe(ROOT_CONTEXT);
  });

  it('round-trips through a context', () => {
    const text = `00-${TRACE}-${SPAN}-01`;
    const ctx = contextFromTraceparent(text);
    expect(trace.getSpanContext(ctx)).toEqual(parseTraceparent(text));
    expect(traceparentOf(ctx)).toBe(text);
    expect(formatTraceparent({ traceId: TRACE, spanId: SPAN, traceFlags: 0 })).toBe(`00-${TRACE}-${SPAN}-00`);
    expect(traceparentOf(ROOT_CONTEXT)).toBeUndefined();
  });
});
