import type { LogicDetails, TestCase, ToolCall, ToolResult } from '../../domain/index.js';

/**
 * Per-tool outcome of one case, from stage 2's diff: how many calls of each tool were expected, made, and
 * matched exactly. Reports aggregate these into per-tool accuracy ("which API does the agent get wrong").
 */
export function toolResultsOf(testCase: TestCase, calls: readonly ToolCall[], logic: LogicDetails | undefined): ToolResult[] {
  const expectedSet =
    logic && logic.call_set >= 0
      ? (testCase.alternative_tool_calls[logic.call_set] ?? testCase.expected_tool_calls)
      : testCase.expected_tool_calls;
  if (expectedSet.length + calls.length > SMALL) return toolResultsByMap(expectedSet, calls, logic);
  // a handful of tools per case: a small array searched linearly, sorted by insertion (no Map, closure or spread)
  const results: ToolResult[] = [];
  for (const e of expectedSet) entry(results, e.tool_name).expected_calls++;
  for (const c of calls) entry(results, c.tool_name).actual_calls++;
  if (logic) {
    for (const c of logic.calls) if (c.status === 'matched') entry(results, c.tool_name).matched_calls++;
  }
  for (const r of results) r.passed = r.expected_calls === r.matched_calls && r.actual_calls === r.expected_calls;
  return results;
}

/** The result of a tool, added at its place in tool-name order (code-unit order, as `<` compares) when new. */
function entry(results: ToolResult[], tool_name: string): ToolResult {
  let at = 0;
  for (; at < results.length; at++) {
    const name = results[at]!.tool_name;
    if (name === tool_name) return results[at]!;
    if (name > tool_name) break;
  }
  const r: ToolResult = { tool_name, expected_calls: 0, actual_calls: 0, matched_calls: 0, passed: false };
  results.splice(at, 0, r);
  return r;
}

/** Above this many calls (expected plus made) the tools are counted in a Map (linear search would be quadratic). */
const SMALL = 32;

function toolResultsByMap(
  expectedSet: readonly { tool_name: string }[],
  calls: readonly ToolCall[],
  logic: LogicDetails | undefined,
): ToolResult[] {
  const byTool = new Map<string, ToolResult>();
  const entry = (tool_name: string): ToolResult => {
    let r = byTool.get(tool_name);
    if (!r) {
      r = { tool_name, expected_calls: 0, actual_calls: 0, matched_calls: 0, passed: false };
      byTool.set(tool_name, r);
    }
    return r;
  };
  for (const e of expectedSet) entry(e.tool_name).expected_calls++;
  for (const c of calls) entry(c.tool_name).actual_calls++;
  if (logic) {
    for (const c of logic.calls) if (c.status === 'matched') entry(c.tool_name).matched_calls++;
  }
  for (const r of byTool.values()) {
    r.passed = r.expected_calls === r.matched_calls && r.actual_calls === r.expected_calls;
  }
  return [...byTool.values()].sort((a, b) => (a.tool_name < b.tool_name ? -1 : a.tool_name > b.tool_name ? 1 : 0));
}
