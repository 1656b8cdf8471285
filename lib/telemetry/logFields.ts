import { inspect } from 'node:util';

/** The ids a log line can name, so logs of a run or a case can be found and joined with its traces. */
export interface LogFieldValues {
  run_id?: string | undefined;
  case_id?: string | undefined;
  trace_id?: string | undefined;
  [key: string]: string | number | boolean | undefined;
}

/** Registered symbol the embedded host recognises (lib/host/logArguments.ts). */
const LOG_FIELDS = Symbol.for('evalp.logFields');

/**
 * Structured fields for a `context.log` / `warn` / `error` call: `context.warn('stalled', logFields({ run_id }))`.
 * The embedded host writes them as properties of its JSON log line (beside the invocation's trace and span ids);
 * in Azure the worker formats log arguments into the message, where they print as ` run_id=... case_id=...`, so a
 * Log Analytics query can still filter on them (and the host's operation id joins the line with the trace).
 * Undefined values are left out.
 */
export function logFields(values: LogFieldValues): Record<string, string | number | boolean> {
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) fields[key] = value;
  Object.defineProperty(fields, LOG_FIELDS, { value: true, enumerable: false });
  Object.defineProperty(fields, inspect.custom, {
    value: () =>
      Object.entries(fields)
        .map(([key, value]) => `${key}=${String(value)}`)
        .join(' '),
    enumerable: false,
  });
  return fields;
}
