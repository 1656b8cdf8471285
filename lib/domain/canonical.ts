import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted (recursively), no whitespace. Two values that are deeply equal as JSON
 * have the same canonical text, so it is the key for cassettes, caches and content hashes.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** sha256 hex of the canonical JSON of a value. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** The canonical key of a tool call: tool name plus key-sorted arguments. */
export function canonicalCallKey(call: { tool_name: string; arguments: Record<string, unknown> }): string {
  return `${call.tool_name}${canonicalJson(call.arguments)}`;
}
