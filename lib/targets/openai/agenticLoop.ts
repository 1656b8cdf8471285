import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { JsonObject, TestCase, ToolCall } from '../../domain/index.js';
import type { ApiProvider, TargetFailure } from '../../ports/index.js';
import { isFields, withCatalogName, type ChatTurn, type Fields } from './chatTurn.js';
import type { ToolNameMap } from './toolNames.js';

export interface AgenticLoopInput {
  testCase: TestCase;
  /** the opening messages (system prompt, question) */
  messages: ChatCompletionMessageParam[];
  /** model requests at most (the last one's calls are reported, not executed) */
  maxTurns: number;
  send: (messages: ChatCompletionMessageParam[]) => Promise<ChatTurn>;
  apiProvider: ApiProvider;
  names: ToolNameMap;
  abortSignal?: AbortSignal | undefined;
}

export type AgenticLoopOutcome =
  | { ok: true; output: unknown; input_tokens: number; output_tokens: number; model: string | null; api_calls_made: number; turns: number }
  | { ok: false; failure: TargetFailure };

/**
 * Lets the model work: each tool call it makes is executed through the stage-3 ApiProvider and the result is
 * sent back as a `tool` message, until it answers without calls or `maxTurns` requests were made. The output is
 * a synthetic assistant message: the last message's fields, with `tool_calls` = every call of every turn in order
 * (catalog names), so stage 1-2 score all calls made and stage 4 the final answer. A failed request fails the
 * whole invocation (a retry starts the conversation again).
 */
export async function runAgenticLoop(input: AgenticLoopInput): Promise<AgenticLoopOutcome> {
  const messages = [...input.messages];
  const allCalls: unknown[] = [];
  const usedExpected = new Set<number>();
  let inputTokens = 0;
  let outputTokens = 0;
  let model: string | null = null;
  let apiCalls = 0;
  for (let turn = 1; ; turn++) {
    const reply = await input.send(messages);
    if (!reply.ok) return reply;
    inputTokens += reply.inputTokens;
    outputTokens += reply.outputTokens;
    model = reply.model ?? model;
    const done = (output: unknown): AgenticLoopOutcome => ({
      ok: true,
      output,
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      model,
      api_calls_made: apiCalls,
      turns: turn,
    });
    if (!reply.message) return done(allCalls.length === 0 ? reply.completion : synthetic({ role: 'assistant', content: null }, allCalls));
    for (const call of reply.toolCalls) allCalls.push(withCatalogName(call, input.names));
    if (reply.toolCalls.length === 0 || turn >= input.maxTurns) return done(synthetic(reply.message, allCalls));
    messages.push(assistantParam(reply.message));
    for (const call of reply.toolCalls) {
      const result = await executeCall(call, input, usedExpected);
      if (result.executed) apiCalls++;
      messages.push({ role: 'tool', tool_call_id: result.callId, content: result.content });
    }
  }
}

/** The assistant turn to send back: only the fields a request accepts (not `annotations`, `audio`, ...). */
function assistantParam(message: Fields): ChatCompletionMessageParam {
  const content = typeof message.content === 'string' ? message.content : null;
  return { role: 'assistant', content, tool_calls: message.tool_calls } as ChatCompletionMessageParam;
}

function synthetic(last: Fields, calls: unknown[]): Fields {
  const { tool_calls: _ignored, ...rest } = last;
  return calls.length === 0 ? rest : { ...rest, tool_calls: calls };
}

async function executeCall(raw: unknown, input: AgenticLoopInput, usedExpected: Set<number>): Promise<{ callId: string; content: string; executed: boolean }> {
  const callId = isFields(raw) && typeof raw.id === 'string' ? raw.id : '';
  const refuse = (error: string) => ({ callId, content: JSON.stringify({ error }), executed: false });
  if (!isFields(raw) || !isFields(raw.function) || typeof raw.function.name !== 'string') return refuse('unsupported tool call: expected a function call');
  const toolName = input.names.fromWire(raw.function.name);
  const args = parseArguments(raw.function.arguments);
  if (!args) return refuse(`the arguments of ${toolName} are not a JSON object`);
  const call: ToolCall = { tool_name: toolName, arguments: args };
  const expectedIndex = matchExpected(input.testCase, toolName, usedExpected);
  const response = await input.apiProvider.execute(call, {
    testCase: input.testCase,
    expectedIndex,
    ...(input.abortSignal ? { abortSignal: input.abortSignal } : {}),
  });
  const content = response.ok
    ? JSON.stringify(response.data)
    : JSON.stringify({ error: response.message, ...(response.status === undefined ? {} : { status: response.status }) });
  return { callId, content, executed: true };
}

function parseArguments(value: unknown): JsonObject | undefined {
  if (isFields(value)) return value as JsonObject;
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isFields(parsed) ? (parsed as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The first expected call of this tool not yet matched (so the `expected` provider can serve its data), else null. */
function matchExpected(testCase: TestCase, toolName: string, used: Set<number>): number | null {
  const index = testCase.expected_tool_calls.findIndex((expected, i) => expected.tool_name === toolName && !used.has(i));
  if (index < 0) return null;
  used.add(index);
  return index;
}
