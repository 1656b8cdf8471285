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
