import type { ExpectedToolCall, TestCase } from '../../domain/index.js';

/** One expected call of a case and where it sits (`expected_tool_calls/0`, `turns/1/alternative_tool_calls/0/2`). */
export interface LocatedCall {
  at: string;
  call: ExpectedToolCall;
}

/** Every expected call of a case: its expected and alternative calls, and those of each conversation turn. */
export function expectedCallsOf(testCase: TestCase): LocatedCall[] {
  const out: LocatedCall[] = [];
  const lists = (prefix: string, expected: readonly ExpectedToolCall[], alternatives: readonly (readonly ExpectedToolCall[])[]) => {
    expected.forEach((call, i) => out.push({ at: `${prefix}expected_tool_calls/${i}`, call }));
    alternatives.forEach((set, j) => set.forEach((call, i) => out.push({ at: `${prefix}alternative_tool_calls/${j}/${i}`, call })));
  };
  lists('', testCase.expected_tool_calls, testCase.alternative_tool_calls);
  testCase.turns?.forEach((turn, t) => lists(`turns/${t}/`, turn.expected_tool_calls, turn.alternative_tool_calls));
  return out;
}

/** The case with every expected call replaced by `map(call)` (same structure; a call mapped to itself is kept). */
export function mapExpectedCalls(testCase: TestCase, map: (call: ExpectedToolCall) => ExpectedToolCall): TestCase {
  const calls = (list: readonly ExpectedToolCall[]) => list.map(map);
  return {
    ...testCase,
    expected_tool_calls: calls(testCase.expected_tool_calls),
    alternative_tool_calls: testCase.alternative_tool_calls.map(calls),
    ...(testCase.turns
      ? {
          turns: testCase.turns.map((turn) => ({
            ...turn,
            expected_tool_calls: calls(turn.expected_tool_calls),
            alternative_tool_calls: turn.alternative_tool_calls.map(calls),
          })),
        }
      : {}),
  };
}
