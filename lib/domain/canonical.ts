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
  // string building without intermediate arrays: this runs for every call key, cassette lookup and content hash
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return out + ']';
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  let out = '{';
  for (const key of keys) {
    const item = obj[key];
    if (item === undefined) continue;
    out += (out.length === 1 ? '' : ',') + quotedKey(key) + ':' + canonicalJson(item);
  }
  return out + '}';
}

/** JSON.stringify of an object key, remembered for the few hundred names tool arguments use. */
const QUOTED_KEYS = new Map<string, string>();
function quotedKey(key: string): string {
  let quoted = QUOTED_KEYS.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (QUOTED_KEYS.size < 10_000) QUOTED_KEYS.set(key, quoted);
  }
  return quoted;
}

/** sha256 hex of the canonical JSON of a value. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** The canonical key of a tool call: tool name plus key-sorted arguments. */
export function canonicalCallKey(call: { tool_name: string; arguments: Record<string, unknown> }): string {
  return `${call.tool_name}${canonicalJson(call.arguments)}`;
}
