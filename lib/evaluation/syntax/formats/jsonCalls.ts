import { describeValue } from '../describeValue.js';
import { parseFailure, type ParseFailure } from '../outcome.js';
import type { CallLocation, Extraction, RawCall } from '../rawCall.js';
import { firstKey, isFields, type Fields } from './fields.js';

/** Keys that name the tool, and keys that hold its arguments, in order of preference. */
export const NAME_KEYS = ['name', 'tool_name', 'function'] as const;
export const ARGUMENT_KEYS = ['arguments', 'parameters', 'args', 'input'] as const;

/**
 * A plain list of calls `{name|tool_name|function, arguments|parameters|args|input}` (arguments as an object or
 * JSON text; `function` may also be an OpenAI-style `{name, arguments}` object). An empty list is a deliberate
 * "no call".
 */
export function extractJsonCalls(items: readonly unknown[], location: CallLocation): Extraction | ParseFailure {
  const calls: RawCall[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!isFields(item)) {
      return parseFailure(
        'json_array',
        'unparseable_output',
        `${location.label}[${i}] is ${describeValue(item)}, not a tool call object like {"name": ..., "arguments": {...}}.`,
      );
    }
    calls.push(jsonCall(item, i));
  }
  return { format: 'json_array', calls, location, answer: null, emptyIsAbstention: true };
}

/** One call object of the plain JSON form. */
export function jsonCall(item: Fields, index: number): RawCall {
  const callId = item.id ?? item.call_id;
  if (isFields(item.function)) {
    const fn = item.function;
    const argsKey = firstKey(fn, ARGUMENT_KEYS) ?? 'arguments';
    return { name: fn.name, args: fn[argsKey], callId, index, argsPath: `/function/${argsKey}` };
  }
  const nameKey = firstKey(item, NAME_KEYS) ?? 'name';
  const argsKey = firstKey(item, ARGUMENT_KEYS) ?? 'arguments';
  return { name: item[nameKey], args: item[argsKey], callId, index, argsPath: `/${argsKey}` };
}

/** Does this object look like one call of the plain JSON form? */
export function looksLikeJsonCall(value: Fields): boolean {
  return firstKey(value, NAME_KEYS) !== undefined;
}
