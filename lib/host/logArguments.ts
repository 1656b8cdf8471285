/**
 * The key that marks a log argument as structured fields (lib/telemetry `logFields`): a registered symbol, so the
 * host and the functions agree on it without importing each other.
 */
export const LOG_FIELDS = Symbol.for('evalp.logFields');

const isFields = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[LOG_FIELDS] === true;

/**
 * Splits `context.log(...)` arguments into what is formatted into the message and the structured fields the
 * embedded host writes as properties of the JSON line (in Azure the same object formats itself as `key=value`
 * text in the message).
 */
export function logArguments(args: unknown[]): { values: unknown[]; fields: Record<string, unknown> } {
  const values: unknown[] = [];
  const fields: Record<string, unknown> = {};
  for (const arg of args) {
    if (isFields(arg)) Object.assign(fields, arg);
    else values.push(arg);
  }
  return { values, fields };
}
