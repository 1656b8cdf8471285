import type { ValidateFunction } from 'ajv/dist/2020.js';
import { type JsonValue, segmentsOf, type ToolCall } from '../../../domain/index.js';
import type { CallIssue } from '../callIssue.js';
import { setOwn } from '../plainJson.js';
import { issuesFromAjv } from './ajvIssues.js';

/** A non-integral stand-in: where the schema rejects it for its type, the schema wants an integer. */
const NON_INTEGRAL = 0.5;

/**
 * JSON.parse reads `5.0` as 5, so an `integer` schema accepts it. For each path in `float_literal_paths`, this
 * validates once more with a non-integral number in its place: a type error there means the schema wants an
 * integer where the target wrote a float literal, reported as wrong_argument_type. Runs only for calls that
 * have float literals (rare), and never changes the call's arguments.
 */
export function floatLiteralIssues(call: ToolCall, validate: ValidateFunction, callIndex: number): CallIssue[] {
  const paths = call.float_literal_paths;
  if (paths === undefined || paths.length === 0) return [];
  let probe: JsonValue = call.arguments;
  for (const path of paths) probe = replaceAt(probe, segmentsOf(path), 0);
  if (validate(probe)) return [];
  const wanted = new Set(paths);
  const describeGot = (path: string): string => `float literal ${floatText(valueAt(call.arguments, segmentsOf(path)))}`;
  return issuesFromAjv(validate.errors ?? [], callIndex, call.tool_name, describeGot).filter(
    (issue) => issue.error_code === 'wrong_argument_type' && wanted.has(issue.path),
  );
}

/** A copy of `node` with the value at `segments` replaced; only the objects along the path are copied. */
function replaceAt(node: JsonValue, segments: readonly string[], depth: number): JsonValue {
  if (depth === segments.length) return NON_INTEGRAL;
  const key = segments[depth] as string;
  if (Array.isArray(node)) {
    const copy = node.slice();
    const index = Number(key);
    copy[index] = replaceAt(node[index] as JsonValue, segments, depth + 1);
    return copy;
  }
  if (node !== null && typeof node === 'object' && Object.hasOwn(node, key)) {
    const copy: Record<string, JsonValue> = { ...node };
    setOwn(copy, key, replaceAt(node[key] as JsonValue, segments, depth + 1));
    return copy;
  }
  return node;
}

function valueAt(node: JsonValue, segments: readonly string[]): unknown {
  let current: unknown = node;
  for (const key of segments)
    current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

/** `5.0` for 5 (the value is integral); large values keep their exponent form. */
function floatText(value: unknown): string {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value.toFixed(1) : String(value);
}
