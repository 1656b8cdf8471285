import type { DiffEntry } from '../../domain/index.js';

const MAX_VALUE_CHARS = 60;

/** A short JSON rendering of a value for messages (`"celsius"`, `5`, `{"a":1,…}`); `nothing` for undefined. */
export function formatValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = `(unprintable ${Array.isArray(value) ? 'array' : typeof value})`; // a BigInt, a cycle, too deep
  }
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/**
 * One diff entry as a phrase a person can act on, e.g. `/unit expected "celsius", got "fahrenheit"`.
 * The root path is shown as `(root)`.
 */
export function describeEntry(entry: DiffEntry): string {
  const where = entry.path === '' ? '(root)' : entry.path;
  // a data-flow argument (`$from`) says what the referenced call returned, or why nothing could be
  if (entry.reference !== undefined && entry.message !== undefined && entry.kind !== 'coerced') return `${where} ${entry.message}`;
  switch (entry.kind) {
    case 'missing':
      return `${where} missing (expected ${formatValue(entry.expected)})`;
    case 'extra':
      return `${where} not expected (got ${formatValue(entry.actual)})`;
    case 'coerced':
      return `${where} equal after ${(entry.coercions ?? []).join(' + ')}`;
    case 'mismatch':
    case 'type_mismatch': {
      const base = `${where} expected ${formatValue(entry.expected)}, got ${formatValue(entry.actual)}`;
      if (entry.coercions !== undefined && entry.coercions.length > 0)
        return `${base} (${entry.coercions.join(' + ')} not allowed by the coercion policy)`;
      return base;
    }
  }
}
