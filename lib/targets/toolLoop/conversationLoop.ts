import { type TestCase, type Trajectory, turnCaseOf } from '../../domain/index.js';
import type { ApiProvider, TargetFailure, TargetTurnOutput } from '../../ports/index.js';
import { runToolLoop, type LoopAnswer, type LoopToolResult, type ToolLoopOutcome, type ToolLoopProtocol } from './toolLoop.js';

/** A model protocol that can hold a conversation: user turns added between tool loops, each turn's answer kept. */
export interface ConversationProtocol extends ToolLoopProtocol {
  /** appends the user's next message to the history */
  addUserMessage(text: string): void;
  /** appends the assistant's final message of a turn (one without calls) to the history */
  addAnswer(turn: LoopAnswer): void;
}

export type LoopSuccess = Extract<ToolLoopOutcome, { ok: true }>;

export interface ConversationLoopInput {
  /** a conversation case (with `turns`) */
  testCase: TestCase;
  /** model requests per turn at most (1 = no tool loop: calls are read, not executed) */
  maxTurns: number;
  protocol: ConversationProtocol;
  tools: ApiProvider;
  abortSignal?: AbortSignal | undefined;
  /** the turn's output for stage 1, built right after the turn's loop (before the next user message) */
  outputOf: (outcome: LoopSuccess) => unknown;
  /** keep each turn's trajectory (false for a target without a tool loop) */
  keepTrajectory: boolean;
}

export type ConversationLoopOutcome =
  | {
      ok: true;
      turns: TargetTurnOutput[];
      input_tokens: number;
      output_tokens: number;
      /** null unless the protocol priced its requests */
      cost_usd: number | null;
      model: string | null;
      api_calls_made: number;
    }
  | { ok: false; failure: TargetFailure; trajectory: Trajectory };

/**
 * Runs a conversation case turn by turn in one model conversation: each user message is added to the history, the
 * tool loop runs for that turn (with the turn's own expectations, so the expected-data provider serves its data),
 * and the turn's final message stays in the history, so the model sees every earlier user message, its own answers
 * and the tool results. A stateful tool executor gets one session for the whole conversation (`openSession` once):
 * the environment carries its state from turn to turn, as the user would expect of one conversation. Calls a turn left unexecuted (the turn cap, or no tool loop) get a "not executed" result so
 * the history stays valid for the protocol. A failed model request fails the whole conversation (a retry starts it
 * again).
 */
export async function runConversationLoop(input: ConversationLoopInput): Promise<ConversationLoopOutcome> {
  const turns = input.testCase.turns ?? [];
  // ONE session for the whole conversation: turn 2's calls see the state turn 1's left, faults count across turns
  // (each turn's runToolLoop asks the session for a session again and gets the same one)
  const tools = input.tools.openSession?.({ testCase: input.testCase }) ?? input.tools;
  const out: TargetTurnOutput[] = [];
  const totals = { input_tokens: 0, output_tokens: 0, cost_usd: null as number | null, model: null as string | null, api_calls_made: 0 };
  for (let i = 0; i < turns.length; i++) {
    input.protocol.addUserMessage(turns[i]!.user);
    const outcome = await runToolLoop({
      testCase: turnCaseOf(input.testCase, i),
      maxTurns: input.maxTurns,
      protocol: input.protocol,
      tools,
      abortSignal: input.abortSignal,
    });
    if (!outcome.ok) {
      const failure = { ...outcome.failure, message: `turn ${i + 1} of ${turns.length}: ${outcome.failure.message}` };
      return { ok: false, failure, trajectory: outcome.trajectory };
    }
    totals.input_tokens += outcome.input_tokens;
    totals.output_tokens += outcome.output_tokens;
    if (outcome.cost_usd !== null) totals.cost_usd = (totals.cost_usd ?? 0) + outcome.cost_usd;
    totals.model = outcome.model ?? totals.model;
    totals.api_calls_made += outcome.api_calls_made;
    out.push({
      output: input.outputOf(outcome),
      ...(input.keepTrajectory ? { trajectory: outcome.trajectory } : {}),
      input_tokens: outcome.input_tokens,
      output_tokens: outcome.output_tokens,
    });
    const last = outcome.last;
    if (last.calls.length > 0) {
      const why = input.maxTurns > 1 ? 'the turn cap was reached' : 'this target does not execute tools';
      input.protocol.addResults(
        last,
        last.calls.map((call) => notExecuted(call, why)),
      );
    } else {
      input.protocol.addAnswer(last);
    }
  }
  return { ok: true, turns: out, ...totals };
}

function notExecuted(call: LoopAnswer['calls'][number], why: string): LoopToolResult {
  return { call, ok: false, executed: false, content: JSON.stringify({ error: `not executed: ${why}` }) };
}

/** The tool executor of a target without a tool loop: never called (one request per turn, calls not executed). */
export const NO_TOOL_EXECUTION: ApiProvider = {
  kind: 'expected',
  execute: () => Promise.reject(new Error('this target does not execute tools')),
};
