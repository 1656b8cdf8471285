import { type CoercionKind, type CoercionPolicy, segmentsOf, type ToolCall } from '../../domain/index.js';
import type { CallIssue } from './callIssue.js';

const NUMERIC = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * The coercion under which a catalog issue is not a syntax failure. The gate and stage 2 must agree: a value
 * the run's coercion policy accepts as equal (`"100"` for a number, `"true"` for a boolean, `5.0` for an
 * integer, `"Audio"` for enum `"audio"`) passes the gate and is judged, with the coercion named, in stage 2.
 * Returns undefined when the issue stands.
 */
export function toleratedCoercion(issue: CallIssue, call: ToolCall, policy: CoercionPolicy): CoercionKind | undefined {
  if (issue.error_code === 'wrong_argument_type') {
    const types = issue.expected?.types;
    if (issue.message.includes('float literal')) return policy.float_to_int ? 'float_to_int' : undefined;
    if (!types) return undefined;
    const value = valueAt(call.arguments, issue.path);
    if (typeof value === 'string') {
      if (policy.numeric_string && NUMERIC.test(value)) {
        if (types.includes('number')) return 'numeric_string';
        if (types.includes('integer') && Number.isInteger(Number(value))) return 'numeric_string';
      }
      if (policy.boolean_string && types.includes('boolean') && /^\s*(true|false)\s*$/i.test(value)) return 'boolean_string';
    }
    if (typeof value === 'number' && policy.numeric_string && types.includes('string')) return 'numeric_string';
    return undefined;
  }
  if (issue.error_code === 'enum_violation' && policy.enum_case) {
    const value = valueAt(call.arguments, issue.path);
    const allowed = issue.expected?.allowed;
    if (typeof value === 'string' && allowed?.some((a) => typeof a === 'string' && a.toLowerCase() === value.trim().toLowerCase()))
      return 'enum_case';
  }
  return undefined;
}

function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const segment of segmentsOf(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node)
      ? node[Number(segment)]
      : Object.hasOwn(node, segment)
        ? (node as Record<string, unknown>)[segment]
        : undefined;
  }
  return node;
}
