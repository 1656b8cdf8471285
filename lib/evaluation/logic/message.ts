import type { CallDiff } from '../../domain/index.js';
import { describeEntry } from '../match/index.js';
import type { CallComparison } from './callComparison.js';
import type { LogicErrorCode } from './errorCode.js';

const MAX_ENTRIES_PER_CALL = 3;

/**
 * A failed comparison as one line a person can act on, e.g.
 * `get_weather: /unit expected "celsius", got "fahrenheit"; 1 expected call missing: get_forecast`.
 * `callSet` >= 0 names the alternative call set the comparison was made against.
 */
export function logicMessage(comparison: CallComparison, code: LogicErrorCode, callSet: number): string {
  const parts: string[] = [];
  const missing = comparison.calls.filter((c) => c.status === 'missing');
  const extra = comparison.calls.filter((c) => c.status === 'extra');
  if (code === 'unexpected_call') {
    parts.push(`expected no tool call (abstain), got ${extra.length}: ${names(extra)}`);
  } else if (code === 'wrong_order' && comparison.dependencyViolations) {
    const tool = (e: number) => comparison.calls.find((c) => c.expected_index === e)?.tool_name ?? `call ${e}`;
    parts.push(
      comparison.dependencyViolations.map((v) => `${tool(v.call)} was called before ${tool(v.needs)}, whose result it uses`).join('; '),
    );
  } else if (code === 'wrong_order') {
    const inActualOrder = [...comparison.calls].sort((x, y) => (x.actual_index ?? 0) - (y.actual_index ?? 0));
    parts.push(`calls made in the wrong order: expected ${names(comparison.calls)}; got ${names(inActualOrder)}`);
  } else if (code === 'wrong_tool' && missing.length === 1 && extra.length === 1) {
    parts.push(`wrong tool: called ${extra[0]!.tool_name} where ${missing[0]!.tool_name} was expected`);
  } else {
    for (const call of comparison.calls) if (call.status === 'partial') parts.push(describeCall(call));
    if (missing.length > 0) parts.push(`${count(missing.length, 'expected call')} missing: ${names(missing)}`);
    if (extra.length > 0) parts.push(`${count(extra.length, 'unexpected call')}: ${names(extra)}`);
  }
  if (comparison.outOfOrder && code !== 'wrong_order') {
    parts.push(
      comparison.dependencyViolations ? 'calls also made before the calls whose results they use' : 'calls also out of the required order',
    );
  }
  const message = parts.join('; ');
  return callSet >= 0 ? `${message} (closest: alternative call set ${callSet})` : message;
}

function describeCall(call: CallDiff): string {
  const problems = call.entries.filter((e) => e.kind !== 'coerced');
  const shown = problems.slice(0, MAX_ENTRIES_PER_CALL).map(describeEntry).join(', ');
  const more = problems.length > MAX_ENTRIES_PER_CALL ? `, and ${problems.length - MAX_ENTRIES_PER_CALL} more` : '';
  return `${call.tool_name}: ${shown}${more}`;
}

function names(calls: readonly CallDiff[]): string {
  return calls.map((c) => c.tool_name).join(', ');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
