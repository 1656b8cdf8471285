import { z } from 'zod';
import { childPointer, segmentsOf } from './jsonPointer.js';

/** A JSON pointer (RFC 6901): '' is the whole result, `/id`, `/orders/0/id` below it. */
const POINTER = z.string().regex(/^(\/([^~]|~[01])*)*$/, 'a JSON pointer (RFC 6901), e.g. "/id" or "/orders/0/id"');

/**
 * A data-flow reference (issue 12): the expected value of an argument is what an earlier call of the same trajectory
 * actually returned, at `path`. `call` names the tool. Which call of that tool: `index` (0-based, counting every call of
 * that tool the agent made, in order) when given; otherwise the nearest earlier call of that tool that returned a
 * result (a failed attempt before a successful retry is skipped). The referenced call must come before the call that
 * uses it, so the references also give the dependency order.
 */
export const DataFlowReferenceSchema = z
  .object({
    call: z.string().min(1),
    path: POINTER,
    index: z.number().int().nonnegative().optional(),
  })
  .strict();
export type DataFlowReference = z.infer<typeof DataFlowReferenceSchema>;

/** One reference found in an expected value: where it sits (a JSON pointer in the arguments) and what it names. */
export interface FoundReference {
  pointer: string;
  ref: DataFlowReference;
}

/** Every `{"$from": ...}` in an expected value (arguments included), with its pointer. Malformed ones are skipped. */
export function findReferences(value: unknown, pointer = ''): FoundReference[] {
  const found: FoundReference[] = [];
  walk(value, pointer, found);
  return found;
}

/** Whether an expected value holds a well-formed `{"$from": ...}` (findReferences(value).length > 0, without pointers). */
export function hasReferences(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasReferences(item)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  if ('$from' in record) return DataFlowReferenceSchema.safeParse(record['$from']).success;
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key) && hasReferences(record[key])) return true;
  return false;
}

function walk(value: unknown, pointer: string, found: FoundReference[]): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, childPointer(pointer, i), found));
    return;
  }
  const record = value as Record<string, unknown>;
  if ('$from' in record) {
    const parsed = DataFlowReferenceSchema.safeParse(record['$from']);
    if (parsed.success) found.push({ pointer, ref: parsed.data });
    return;
  }
  for (const key of Object.keys(record)) walk(record[key], childPointer(pointer, key), found);
}

/** The value at a JSON pointer in a JSON value, or `{ found: false }` (a missing key, an index out of range). */
export function valueAtPointer(value: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  let current = value;
  for (const segment of segmentsOf(pointer)) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(segment) || Number(segment) >= current.length) return { found: false };
      current = current[Number(segment)];
    } else if (typeof current === 'object' && current !== null && Object.prototype.hasOwnProperty.call(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

/**
 * Import-time check of one call list: every `$from` must name another expected call of the list (a tool the case
 * expects, and not only the call itself). Returns the problems with the path of the field.
 */
export function dataFlowProblems(
  calls: readonly { tool_name: string; arguments?: Record<string, unknown> | undefined }[],
): Array<{ path: (string | number)[]; message: string }> {
  const problems: Array<{ path: (string | number)[]; message: string }> = [];
  calls.forEach((call, i) => {
    for (const { pointer, ref } of findReferences(call.arguments ?? {})) {
      const others = calls.filter((c, j) => j !== i && c.tool_name === ref.call);
      if (others.length > 0) continue;
      const names = [...new Set(calls.map((c) => c.tool_name))].join(', ');
      problems.push({
        path: [i, 'arguments', ...segmentsOf(pointer), '$from', 'call'],
        message:
          calls[i]!.tool_name === ref.call && calls.filter((c) => c.tool_name === ref.call).length === 1
            ? `"${ref.call}" refers to the call itself; a reference names an earlier expected call`
            : `"${ref.call}" is not among this case's expected calls (${names})`,
      });
    }
  });
  return problems;
}
