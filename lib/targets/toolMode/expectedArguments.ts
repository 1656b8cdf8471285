import { findReferences, type JsonObject, type JsonValue, representativeValue, type TestCase, valueAtPointer } from '../../domain/index.js';

/**
 * The concrete arguments tool mode sends for expected call `index` of a case: each matcher's representative value, and
 * each `$from` (`{call, path, index?}`) the value the referenced earlier expected call should return, read at `path`
 * from that call's `expected_raw_data` (the data tool mode checks the tools against). The source call is the
 * `index`-th earlier expected call of that tool, else the last one, as stage 2 resolves it. A reference whose source
 * has no expected data (or lacks the path) stays null: stage 2 then reports it, and the case's author adds the data.
 */
export function expectedArguments(testCase: TestCase, index: number): JsonObject {
  const calls = testCase.expected_tool_calls;
  const call = calls[index]!;
  const args = representativeValue(call.arguments) as JsonObject;
  for (const { pointer, ref } of findReferences(call.arguments)) {
    const earlier = calls.slice(0, index).flatMap((c, j) => (c.tool_name === ref.call ? [j] : []));
    const source = ref.index !== undefined ? earlier[ref.index] : earlier.at(-1);
    const data = source === undefined ? undefined : testCase.expected_raw_data?.[source];
    if (data === undefined) continue;
    const found = valueAtPointer(representativeValue(data), ref.path);
    if (found.found) setAtPointer(args, pointer, found.value as JsonValue);
  }
  return args;
}

function setAtPointer(target: JsonObject, pointer: string, value: JsonValue): void {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let at: JsonValue = target;
  for (const [i, segment] of segments.entries()) {
    if (typeof at !== 'object' || at === null) return;
    const last = i === segments.length - 1;
    if (Array.isArray(at)) {
      const k = Number(segment);
      if (last) at[k] = value;
      else at = at[k] ?? null;
    } else if (last) at[segment] = value;
    else at = at[segment] ?? null;
  }
}
