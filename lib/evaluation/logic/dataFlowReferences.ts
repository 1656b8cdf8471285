import {
  type DataFlowReference,
  type DiffEntry,
  type ExpectedValue,
  findReferences,
  segmentsOf,
  valueAtPointer,
} from '../../domain/index.js';
import { formatValue, type MatchResult } from '../match/index.js';
import type { CallOutcomes } from './callOutcomes.js';

/** How a reference resolved: the value the referenced call returned, or why there is none. */
export type Resolution =
  | { ok: true; value: unknown; source: number }
  | { ok: false; reason: 'call_missing' | 'call_failed' | 'path_missing' | 'no_results'; source: number | null };

/**
 * Resolves a `$from` reference for the call at `at` (an index into `calls`): the `index`-th call of the named tool
 * (0-based over all its calls) when given, else the nearest earlier call of that tool that returned a result. The
 * referenced call must come before `at`.
 */
export function resolveReference(
  ref: DataFlowReference,
  at: number,
  calls: ReadonlyArray<{ tool_name: string }>,
  outcomes: CallOutcomes | undefined,
): Resolution {
  const earlier: number[] = [];
  for (let j = 0; j < at && j < calls.length; j++) if (calls[j]!.tool_name === ref.call) earlier.push(j);
  let source: number | undefined;
  if (ref.index !== undefined) {
    source = earlier[ref.index];
    if (source === undefined) return { ok: false, reason: 'call_missing', source: null };
  } else {
    if (earlier.length === 0) return { ok: false, reason: 'call_missing', source: null };
    if (outcomes === undefined) return { ok: false, reason: 'no_results', source: earlier[earlier.length - 1]! };
    source = [...earlier].reverse().find((j) => outcomes[j]?.ok === true);
    if (source === undefined) return { ok: false, reason: 'call_failed', source: earlier[earlier.length - 1]! };
  }
  const outcome = outcomes?.[source];
  if (outcomes === undefined || outcome === undefined) return { ok: false, reason: 'no_results', source };
  if (!outcome.ok) return { ok: false, reason: 'call_failed', source };
  const found = valueAtPointer(outcome.result, ref.path);
  return found.found ? { ok: true, value: found.value, source } : { ok: false, reason: 'path_missing', source };
}

/** An expected value no actual value equals: what an unresolved reference is matched as (its entry is then rewritten). */
const UNRESOLVED = '\u0000unresolved $from reference\u0000';

export interface ResolvedReference {
  pointer: string;
  ref: DataFlowReference;
  resolution: Resolution;
}

/** The expected arguments with every `$from` replaced by the value it resolves to (or a value nothing matches). */
export function substituteReferences(
  args: Readonly<Record<string, ExpectedValue>>,
  resolve: (ref: DataFlowReference) => Resolution,
): { args: Record<string, ExpectedValue>; refs: ResolvedReference[] } {
  const refs = findReferences(args).map(({ pointer, ref }) => ({ pointer, ref, resolution: resolve(ref) }));
  if (refs.length === 0) return { args: args as Record<string, ExpectedValue>, refs };
  const copy = structuredClone(args) as Record<string, ExpectedValue>;
  for (const { pointer, resolution } of refs) {
    setAt(copy, segmentsOf(pointer), (resolution.ok ? resolution.value : UNRESOLVED) as ExpectedValue);
  }
  return { args: copy, refs };
}

function setAt(root: Record<string, ExpectedValue>, segments: string[], value: ExpectedValue): void {
  let node: unknown = root;
  for (let i = 0; i < segments.length - 1; i++) node = (node as Record<string, unknown>)[segments[i]!];
  (node as Record<string, unknown>)[segments[segments.length - 1]!] = value;
}

/** The entries of a match at or under a reference's pointer rewritten to say what the reference expected and why. */
export function annotateReferences(result: MatchResult, refs: readonly ResolvedReference[]): MatchResult {
  if (refs.length === 0) return result;
  const entries = result.entries.map((entry) => {
    const ref = refs.find((r) => entry.path === r.pointer || entry.path.startsWith(`${r.pointer}/`));
    return ref === undefined ? entry : annotate(entry, ref);
  });
  return { ...result, entries };
}

function annotate(entry: DiffEntry, { ref, resolution }: ResolvedReference): DiffEntry {
  const reference = {
    call: ref.call,
    path: ref.path,
    ...(ref.index === undefined ? {} : { index: ref.index }),
    source_index: resolution.source,
    resolved: resolution.ok,
  };
  if (entry.kind === 'coerced') return { ...entry, reference };
  const at = ref.path === '' ? '' : ` ${ref.path}`;
  if (resolution.ok) {
    const message =
      entry.kind === 'missing'
        ? `not passed, where ${ref.call} returned ${formatValue(resolution.value)}${at ? ` at${at}` : ''}`
        : `passed ${formatValue(entry.actual)} where ${ref.call} returned ${formatValue(resolution.value)}${at ? ` at${at}` : ''}`;
    return { ...entry, reference, message };
  }
  const { expected: _unresolved, ...rest } = entry;
  const which = ref.index === undefined ? ref.call : `${ref.call} call #${ref.index}`;
  const why = {
    call_missing: `refers to ${which}, which was not called before it`,
    call_failed: `refers to ${which}, which returned an error, not a result`,
    path_missing: `refers to${at} in the result of ${which}, which has no such path`,
    no_results: `refers to the result of ${which}, but the results of the calls are unknown (no trajectory, no environment to replay them on)`,
  }[resolution.reason];
  return { ...rest, reference, message: why };
}
