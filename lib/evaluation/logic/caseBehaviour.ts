import type { ErrorCode, ScriptedFault, StageResult, TestCase, ToolCall, Trajectory } from '../../domain/index.js';
import { asksQuestion } from './clarification.js';

/** The behaviour checks of issue 12 beside the call comparison: recovery from scripted failures, and abstention. */
export type BehaviourCode = Extract<
  ErrorCode,
  'missing_recovery' | 'called_when_irrelevant' | 'called_instead_of_clarifying' | 'clarified_instead_of_calling' | 'missing_clarification'
>;

export interface BehaviourFailure {
  code: BehaviourCode;
  message: string;
}

/** Words that say an answer tells the user a tool failed, when a fault names none (`mentions`). */
export const DEFAULT_FAILURE_WORDS = [
  'unavailable',
  'error',
  'failed',
  'fail',
  'try again',
  'later',
  'could not',
  "couldn't",
  'cannot',
  "can't",
  'unable',
  'timed out',
  'timeout',
  'problem',
  'sorry',
  'no results',
  'nothing',
];

/**
 * Whether an answer asks the user for something: it contains a question mark and, when the case names what should be
 * asked for (`asks_for`), one of those words (case-insensitive; `_` read as a space, so `order_id` matches "order id").
 */
export function isClarificationRequest(answer: string | null, asksFor?: readonly string[]): boolean {
  // the same notion of "asked a question" as conversation turns (clarification.ts), plus the words it must ask about
  if (answer === null || !asksQuestion(answer)) return false;
  return asksFor === undefined || asksFor.length === 0 || mentionsAny(answer, asksFor);
}

function mentionsAny(text: string, words: readonly string[]): boolean {
  const lower = text.toLowerCase().replace(/_/g, ' ');
  return words.some((w) => lower.includes(w.toLowerCase().replace(/_/g, ' ')));
}

/** The calls that were executed, in order: the trajectory's executed call steps, else every parsed call. */
export function executedCalls(calls: readonly ToolCall[], trajectory?: Trajectory): ToolCall[] {
  if (!trajectory) return [...calls];
  return trajectory.steps.flatMap((s) =>
    s.kind === 'tool_call' && s.executed ? [{ tool_name: s.tool_name, arguments: s.arguments ?? {} }] : [],
  );
}

/** Where each scripted fault hit: the position in the executed calls, counted as the environment session counts. */
export function faultHits(
  faults: readonly ScriptedFault[],
  executed: ReadonlyArray<{ tool_name: string }>,
): Array<{ fault: ScriptedFault; at: number }> {
  const hits: Array<{ fault: ScriptedFault; at: number }> = [];
  const perTool = new Map<string, number>();
  executed.forEach((call, i) => {
    const n = (perTool.get(call.tool_name) ?? 0) + 1;
    perTool.set(call.tool_name, n);
    const fault = faults.find((f) => (f.tool === undefined ? f.occurrence === i + 1 : f.tool === call.tool_name && f.occurrence === n));
    if (fault) hits.push({ fault, at: i });
  });
  return hits;
}

/**
 * The first behaviour the case expects and the agent did not show, or undefined:
 * - `abstention.reason: irrelevant`: any call is `called_when_irrelevant`;
 * - `abstention.reason: missing_parameter`: any call is `called_instead_of_clarifying`; no call and no question back
 *   (isClarificationRequest with `asks_for`) is `missing_clarification`;
 * - calls expected, none made, and the answer is a question: `clarified_instead_of_calling`;
 * - each scripted fault the agent's calls hit (`environment.faults`) needs its recovery: `retry` (a later call of the
 *   same tool), `other_tool` (a later call of another tool), `tell_user` (the final answer mentions the failure:
 *   `mentions`, else common failure words), `any` (one of them); otherwise `missing_recovery`.
 *
 * `before`: in one turn of a conversation, the calls the agent executed in the turns before it. Scripted faults count
 * calls per conversation (as the environment session does), so the `occurrence`-th call may fall in a later turn; the
 * recovery is expected in the turn the fault hit.
 */
export function checkBehaviour(
  testCase: TestCase,
  calls: readonly ToolCall[],
  answer: string | null,
  trajectory?: Trajectory,
  before: ReadonlyArray<{ tool_name: string }> = [],
): BehaviourFailure | undefined {
  const abstention = testCase.abstention;
  const names = (): string => calls.map((c) => c.tool_name).join(', '); // only for a failure's message
  if (abstention?.reason === 'irrelevant' && calls.length > 0) {
    return {
      code: 'called_when_irrelevant',
      message: `the request is outside what the tools are for, but ${count(calls.length)} made: ${names()}`,
    };
  }
  if (abstention?.reason === 'missing_parameter') {
    const wanted = abstention.asks_for?.length ? ` (${abstention.asks_for.join(' or ')})` : '';
    if (calls.length > 0) {
      return {
        code: 'called_instead_of_clarifying',
        message: `the question lacks a required parameter${wanted}: the agent should have asked for it, but ${count(calls.length)} made: ${names()}`,
      };
    }
    if (!isClarificationRequest(answer, abstention.asks_for)) {
      return {
        code: 'missing_clarification',
        message: `the question lacks a required parameter${wanted}; the agent made no call but did not ask for it either (answer: ${quote(answer)})`,
      };
    }
  }
  if (!abstention && testCase.expected_tool_calls.length > 0 && calls.length === 0 && isClarificationRequest(answer)) {
    return {
      code: 'clarified_instead_of_calling',
      message: `the question had what the calls need (${testCase.expected_tool_calls.map((c) => c.tool_name).join(', ')}), but the agent asked back: ${quote(answer)}`,
    };
  }
  const faults = testCase.environment?.faults ?? [];
  if (faults.length === 0) return undefined;
  const executed = [...before, ...executedCalls(calls, trajectory)];
  for (const { fault, at } of faultHits(faults, executed).filter((hit) => hit.at >= before.length)) {
    const failed = executed[at]!.tool_name;
    const later = executed.slice(at + 1);
    const retried = later.some((c) => c.tool_name === failed);
    const otherTool = later.some((c) => c.tool_name !== failed);
    const told = answer !== null && answer.trim() !== '' && mentionsAny(answer, fault.mentions ?? DEFAULT_FAILURE_WORDS);
    const recovered = {
      retry: retried,
      other_tool: otherTool,
      tell_user: told,
      any: retried || otherTool || told,
    }[fault.expect_recovery];
    if (!recovered) {
      const wanted = {
        retry: 'retry it',
        other_tool: 'use another tool',
        tell_user: 'tell the user',
        any: 'retry, use another tool or tell the user',
      }[fault.expect_recovery];
      return {
        code: 'missing_recovery',
        message: `${failed} failed at call ${at + 1}${before.length ? ' of the conversation' : ''} (scripted ${fault.kind}) and the agent did not ${wanted} (answer: ${quote(answer)})`,
      };
    }
  }
  return undefined;
}

/**
 * Folds a behaviour failure into stage 2 (as routing is folded): the stage fails with the behaviour's code (more
 * informative than the call comparison's), the score is the mean of the comparison's and 0, and `details.behaviour`
 * keeps the reason. A passing behaviour leaves the result as it is.
 */
export function withBehaviour(logic: StageResult, failure: BehaviourFailure | undefined): StageResult {
  if (failure === undefined || logic.status === 'skipped' || logic.status === 'error') return logic;
  const details = typeof logic.details === 'object' && logic.details !== null ? logic.details : {};
  return {
    ...logic,
    status: 'failed',
    passed: false,
    score: logic.score === null ? 0 : logic.score / 2,
    error_code: failure.code,
    message: logic.passed || !logic.message ? failure.message : `${failure.message}; ${logic.message}`,
    details: { ...details, behaviour: failure },
  };
}

function count(n: number): string {
  return n === 1 ? '1 call was' : `${n} calls were`;
}

function quote(answer: string | null): string {
  if (answer === null || answer.trim() === '') return 'none';
  return answer.length > 80 ? `"${answer.slice(0, 79)}…"` : `"${answer}"`;
}
