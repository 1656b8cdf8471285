import type { ErrorCode, StageResult, ToolCall } from '../../domain/index.js';

/** What the clarification check reads of a conversation turn. */
export interface ClarificationExpectation {
  expect_clarification: boolean;
  expected_tool_calls: readonly unknown[];
}

/**
 * Whether an answer asks the user something: non-blank text with a question mark. Deliberately simple and
 * predictable (a gold set can rely on it); whether the question asks for the *right* thing is stage 4's to judge
 * against the turn's expected answer or facts.
 */
export function asksQuestion(answer: string | null): boolean {
  return answer !== null && answer.trim() !== '' && answer.includes('?');
}

/**
 * Stage 2's clarification rules for one turn, applied to the logic result of its calls:
 * - the turn expects a clarification and the agent called: `called_instead_of_clarifying`;
 * - it expects a clarification and the agent neither called nor asked a question: `missing_clarification`;
 * - it expects calls, the logic stage did not pass, and the agent made no call but asked a question:
 *   `clarified_instead_of_calling` (instead of `missing_call`).
 * Otherwise the logic result is returned unchanged.
 */
export function checkClarification(
  turn: ClarificationExpectation,
  calls: readonly ToolCall[],
  answer: string | null,
  logic: StageResult,
): StageResult {
  const fail = (error_code: ErrorCode, message: string): StageResult => ({
    ...logic,
    status: 'failed',
    passed: false,
    score: 0,
    error_code,
    message,
  });
  if (turn.expect_clarification) {
    if (calls.length > 0) {
      const names = [...new Set(calls.map((c) => c.tool_name))].join(', ');
      return fail(
        'called_instead_of_clarifying',
        `the turn should be answered with a question for the missing information, but the agent called ${names}`,
      );
    }
    if (!asksQuestion(answer)) {
      const said =
        answer === null || answer.trim() === '' ? 'said nothing' : `answered ${JSON.stringify(answer.slice(0, 80))} without a question`;
      return fail('missing_clarification', `the turn should be answered with a question for the missing information; the agent ${said}`);
    }
    return logic;
  }
  if (turn.expected_tool_calls.length > 0 && calls.length === 0 && logic.status !== 'passed' && asksQuestion(answer)) {
    return fail(
      'clarified_instead_of_calling',
      `the agent asked ${JSON.stringify(answer!.slice(0, 80))} where it had what it needed: ${turn.expected_tool_calls.length} call(s) expected`,
    );
  }
  return logic;
}
