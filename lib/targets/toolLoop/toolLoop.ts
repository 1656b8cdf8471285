import {
  isJsonObject,
  type JsonObject,
  type JsonValue,
  type TestCase,
  type ToolCall,
  type Trajectory,
  type TrajectoryStep,
} from '../../domain/index.js';
import { type ApiProvider, failureBlamesCall, type TargetFailure } from '../../ports/index.js';

/** One tool call a model asked for, in protocol-neutral form. */
export interface LoopCall {
  /** the protocol's call id (`call_…`, `toolu_…`), '' when it gave none */
  id: string;
  /** the catalog name (a protocol that renames tools on the wire maps names back before handing calls over) */
  name: string;
  /** the arguments as the model sent them: JSON text (OpenAI) or an object (Anthropic) */
  arguments: unknown;
}

/** One model request's answer, in protocol-neutral form. */
export type LoopTurn =
  | {
      ok: true;
      /** the text the model wrote in this turn, null when none */
      text: string | null;
      calls: LoopCall[];
      inputTokens: number;
      outputTokens: number;
      /** the turn's cost when the protocol prices it itself (e.g. prompt-caching rates); else the target prices tokens */
      costUsd?: number;
      model: string | null;
      /** the protocol's assistant message as received (the target builds its output from the last one) */
      message: unknown;
    }
  | { ok: false; failure: TargetFailure };
export type LoopAnswer = Extract<LoopTurn, { ok: true }>;

/** What one call returned, to send back to the model. */
export interface LoopToolResult {
  call: LoopCall;
  /** false when the tool failed or the call was not executed */
  ok: boolean;
  executed: boolean;
  /** JSON text for the model: the data, or `{"error": ...}` */
  content: string;
}

/**
 * One conversation in a model protocol (OpenAI chat completions, Anthropic Messages, ...). The protocol keeps its own
 * history: `send` makes one model request with everything so far; `addResults` appends the assistant turn and the
 * results of its calls, in the protocol's format.
 */
export interface ToolLoopProtocol {
  send(): Promise<LoopTurn>;
  addResults(turn: LoopAnswer, results: readonly LoopToolResult[]): void;
}

export interface ToolLoopInput {
  testCase: TestCase;
  /** model requests at most; the last one's calls are recorded, not executed */
  maxTurns: number;
  protocol: ToolLoopProtocol;
  /** executes the model's calls: the run's stage-3 provider (recorded, http, expected data, or an MCP server) */
  tools: ApiProvider;
  abortSignal?: AbortSignal | undefined;
}

interface Totals {
  trajectory: Trajectory;
  input_tokens: number;
  output_tokens: number;
  /** summed costs the protocol priced itself; null when no turn did (the target prices the tokens) */
  cost_usd: number | null;
  model: string | null;
  api_calls_made: number;
  turns: number;
}

export type ToolLoopOutcome =
  | (Totals & { ok: true; /** every call of every turn, in order */ calls: LoopCall[]; last: LoopAnswer })
  | (Totals & { ok: false; failure: TargetFailure });

/**
 * Lets a model work with tools: each call it makes is executed through `tools` and the result sent back, until it
 * answers without calls or `maxTurns` requests were made. Every step is recorded in the trajectory: each model
 * request (text, tokens, latency) and each call (arguments, result or error, latency). A call whose arguments are not
 * a JSON object is not executed: the model gets `{"error": ...}` back. A failed model request fails the loop (a
 * retry starts the conversation again); a failed tool is the model's to handle, so it is sent back as an error.
 */
export async function runToolLoop(input: ToolLoopInput): Promise<ToolLoopOutcome> {
  const steps: TrajectoryStep[] = [];
  const calls: LoopCall[] = [];
  const usedExpected = new Set<number>();
  // a stateful provider (an environment) gives each conversation its own session
  const tools = input.tools.openSession?.({ testCase: input.testCase }) ?? input.tools;
  const run: ToolLoopInput = tools === input.tools ? input : { ...input, tools };
  const totals = { input_tokens: 0, output_tokens: 0, cost_usd: null as number | null, model: null as string | null, api_calls_made: 0 };
  const finish = (turns: number, stop: Trajectory['stop']): Totals => ({ ...totals, turns, trajectory: { steps, turns, stop } });
  for (let turn = 1; ; turn++) {
    const started = performance.now();
    const reply = await input.protocol.send();
    if (!reply.ok) return { ok: false, failure: reply.failure, ...finish(turn, 'failed') };
    totals.input_tokens += reply.inputTokens;
    totals.output_tokens += reply.outputTokens;
    if (reply.costUsd !== undefined) totals.cost_usd = (totals.cost_usd ?? 0) + reply.costUsd;
    totals.model = reply.model ?? totals.model;
    steps.push({
      kind: 'model',
      turn,
      text: reply.text,
      calls: reply.calls.length,
      input_tokens: reply.inputTokens,
      output_tokens: reply.outputTokens,
      latency_ms: msSince(started),
      model: reply.model,
    });
    calls.push(...reply.calls);
    if (reply.calls.length === 0) return { ok: true, calls, last: reply, ...finish(turn, 'answered') };
    if (turn >= input.maxTurns) {
      for (const call of reply.calls) steps.push(notExecuted(call, turn, 'not executed: the turn cap was reached'));
      return { ok: true, calls, last: reply, ...finish(turn, 'turn_cap') };
    }
    const results: LoopToolResult[] = [];
    for (const call of reply.calls) {
      const executed = await execute(call, turn, run, usedExpected);
      steps.push(executed.step);
      if (executed.result.executed) totals.api_calls_made++;
      if (executed.infrastructure) return { ok: false, failure: executed.infrastructure, ...finish(turn, 'failed') };
      results.push(executed.result);
    }
    input.protocol.addResults(reply, results);
  }
}

/**
 * Executes one call. A failure that says something about the call (the API rejected it with a 4xx, or no recording
 * exists for it) goes back to the model; one that does not (network, timeout, 5xx, 408/429) is an infrastructure
 * fault: the invocation fails with `target_error` (retryable), so it never becomes the model's score. Exceptions of
 * the provider (a tool server that will not start, cancellation) propagate.
 */
async function execute(
  call: LoopCall,
  turn: number,
  input: ToolLoopInput,
  usedExpected: Set<number>,
): Promise<{ result: LoopToolResult; step: TrajectoryStep; infrastructure?: TargetFailure }> {
  const args = parseArguments(call.arguments);
  if (!args) {
    const error = `the arguments of ${call.name} are not a JSON object`;
    return { result: { call, ok: false, executed: false, content: JSON.stringify({ error }) }, step: notExecuted(call, turn, error) };
  }
  const toolCall: ToolCall = { tool_name: call.name, arguments: args };
  const expectedIndex = matchExpected(input.testCase, call.name, usedExpected);
  const started = performance.now();
  const response = await input.tools.execute(toolCall, {
    testCase: input.testCase,
    expectedIndex,
    ...(input.abortSignal ? { abortSignal: input.abortSignal } : {}),
  });
  const latency = msSince(started);
  const base = {
    kind: 'tool_call' as const,
    turn,
    call_id: call.id,
    tool_name: call.name,
    arguments: args,
    ...rawText(call),
    executed: true,
    latency_ms: latency,
  };
  if (response.ok) {
    return {
      result: { call, ok: true, executed: true, content: JSON.stringify(response.data) },
      step: { ...base, ok: true, result: response.data, status: response.status },
    };
  }
  const content = JSON.stringify({ error: response.message, ...(response.status === undefined ? {} : { status: response.status }) });
  const step: TrajectoryStep = {
    ...base,
    ok: false,
    error: response.message,
    ...(response.status === undefined ? {} : { status: response.status }),
    ...(response.scripted === true ? { scripted: true } : {}),
  };
  const result: LoopToolResult = { call, ok: false, executed: true, content };
  // a failure the case scripted (environment faults) is the model's to handle, like a 4xx
  if (response.errorCode === 'no_recording' || failureBlamesCall(response) || response.scripted === true) return { result, step };
  const infrastructure: TargetFailure = {
    ok: false,
    error_code: 'target_error',
    message: `tool ${call.name} could not be executed (${response.message}); the case is not the model's failure`,
    latency_ms: latency,
    attempts: 1,
    retryable: true,
    ...(response.status === undefined ? {} : { http_status: response.status }),
  };
  return { result, step, infrastructure };
}

function notExecuted(call: LoopCall, turn: number, error: string): TrajectoryStep {
  return {
    kind: 'tool_call',
    turn,
    call_id: call.id,
    tool_name: call.name,
    arguments: parseArguments(call.arguments) ?? null,
    ...rawText(call),
    executed: false,
    ok: false,
    error,
    latency_ms: 0,
  };
}

function rawText(call: LoopCall): { raw_arguments?: string } {
  return typeof call.arguments === 'string' ? { raw_arguments: call.arguments } : {};
}

/** The arguments as a JSON object: an object as is, JSON text parsed ('' = no arguments); undefined otherwise. */
export function parseArguments(value: unknown): JsonObject | undefined {
  if (isJsonObject(value as JsonValue)) return value as JsonObject;
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isJsonObject(parsed as JsonValue) ? (parsed as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The first expected call of this tool not yet used (so the `expected` provider can serve its data), else null. */
function matchExpected(testCase: TestCase, toolName: string, used: Set<number>): number | null {
  const index = testCase.expected_tool_calls.findIndex((expected, i) => expected.tool_name === toolName && !used.has(i));
  if (index < 0) return null;
  used.add(index);
  return index;
}

function msSince(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}
