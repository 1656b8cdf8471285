import type { CallDiff, DiffEntry, ErrorCode } from '../../domain/index.js';
import type { CallComparison } from './callComparison.js';

/** The stage 2 error codes, from the most to the least informative. */
export type LogicErrorCode = Extract<
  ErrorCode,
  | 'unexpected_call'
  | 'wrong_order'
  | 'wrong_tool'
  | 'missing_call'
  | 'extra_call'
  | 'missing_argument'
  | 'extra_argument'
  | 'argument_mismatch'
  | 'unresolved_reference'
  | 'data_flow_mismatch'
>;

/**
 * The most informative reason a failed comparison failed:
 * 1. `unexpected_call`: the case expects no call (abstention) and calls were made;
 * 2. `wrong_order`: (strict order) every call matches, only the order is wrong (otherwise the order problem is
 *    only added to the message);
 * 3. `wrong_tool`: an expected call is missing and a call of another tool was made in its place;
 * 4. `missing_call`, then 5. `extra_call`;
 * 6. argument level, over the partially matched calls: `missing_argument` (a top-level argument is absent),
 *    then `extra_argument` (a top-level argument the case does not ask for), then `argument_mismatch`
 *    (a wrong value, a wrong type, or anything missing or extra inside an argument). A data-flow argument (`$from`)
 *    that is wrong comes before `extra_argument`: `unresolved_reference` (the referenced call was not made before, failed,
 *    or has no such path), then `data_flow_mismatch` (the value is not the one the referenced call returned).
 * Returns undefined for a passed comparison.
 */
export function logicErrorCode(comparison: CallComparison, expectedCalls: number): LogicErrorCode | undefined {
  if (comparison.passed) return undefined;
  if (expectedCalls === 0) return 'unexpected_call';
  if (comparison.outOfOrder && comparison.calls.every((c) => c.status === 'matched')) return 'wrong_order';
  const missing = comparison.calls.some((c) => c.status === 'missing');
  const extra = comparison.calls.some((c) => c.status === 'extra');
  if (missing && extra) return 'wrong_tool';
  if (missing) return 'missing_call';
  if (extra) return 'extra_call';
  return argumentErrorCode(comparison.calls);
}

const ARGUMENT_CODES: readonly LogicErrorCode[] = [
  'missing_argument',
  'unresolved_reference',
  'data_flow_mismatch',
  'extra_argument',
  'argument_mismatch',
];

function argumentErrorCode(calls: readonly CallDiff[]): LogicErrorCode {
  let best = ARGUMENT_CODES.length - 1;
  for (const call of calls) {
    if (call.status !== 'partial') continue;
    for (const entry of call.entries) {
      const code = entryErrorCode(entry);
      if (code === 'missing_argument') return code;
      if (code !== undefined) best = Math.min(best, ARGUMENT_CODES.indexOf(code));
    }
  }
  return ARGUMENT_CODES[best]!;
}

function entryErrorCode(entry: DiffEntry): LogicErrorCode | undefined {
  if (entry.kind === 'coerced') return undefined;
  const topLevel = entry.path.lastIndexOf('/') === 0;
  if (topLevel && entry.kind === 'missing') return 'missing_argument';
  if (entry.reference !== undefined) return entry.reference.resolved ? 'data_flow_mismatch' : 'unresolved_reference';
  if (topLevel && entry.kind === 'extra') return 'extra_argument';
  return 'argument_mismatch';
}
