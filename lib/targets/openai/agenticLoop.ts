import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { TestCase, Trajectory } from '../../domain/index.js';
import type { ApiProvider, TargetFailure } from '../../ports/index.js';
import { runToolLoop, type LoopAnswer, type LoopCall, type LoopToolResult } from '../toolLoop/toolLoop.js';
import type { ConversationProtocol } from '../toolLoop/conversationLoop.js';
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
  | {
      ok: true;
      output: unknown;
      input_tokens: number;
      output_tokens: number;
      model: string | null;
      api_calls_made: number;
      turns: number;
      trajectory: Trajectory;
    }
  | { ok: false; failure: TargetFailure; trajectory: Trajectory };

/**
 * The OpenAI chat-completions side of the generic tool loop (../toolLoop): each call the model makes is executed
 * through the stage-3 ApiProvider and the result sent back as a `tool` message. The output is a synthetic assistant
 * message: the last message's fields, with `tool_calls` = every call of every turn in order (catalog names), so
 * stages 1-2 score all calls made and stage 4 the final answer; the trajectory keeps every step.
 */
export async function runAgenticLoop(input: AgenticLoopInput): Promise<AgenticLoopOutcome> {
  const protocol = new ChatCompletionsConversation(input);
  const outcome = await runToolLoop({
    testCase: input.testCase,
    maxTurns: input.maxTurns,
    protocol,
    tools: input.apiProvider,
    abortSignal: input.abortSignal,
  });
  if (!outcome.ok) return { ok: false, failure: outcome.failure, trajectory: outcome.trajectory };
  const output = protocol.outputSince(0, outcome.last);
  return {
    ok: true,
    output,
    input_tokens: outcome.input_tokens,
    output_tokens: outcome.output_tokens,
    model: outcome.model,
    api_calls_made: outcome.api_calls_made,
    turns: outcome.turns,
    trajectory: outcome.trajectory,
  };
}

/**
 * One chat-completions conversation: the message history, and every call as received (catalog names). As a
 * ConversationProtocol it also takes the user's later messages and keeps each turn's final answer in the history.
 */
export class ChatCompletionsConversation implements ConversationProtocol {
  private readonly messages: ChatCompletionMessageParam[];
  readonly rawCalls: unknown[] = [];
  lastCompletion: unknown;

  constructor(private readonly input: AgenticLoopInput) {
    this.messages = [...input.messages];
  }

  async send() {
    const reply = await this.input.send(this.messages);
    if (!reply.ok) return reply;
    this.lastCompletion = reply.completion;
    const calls: LoopCall[] = [];
    for (const raw of reply.toolCalls) {
      const named = withCatalogName(raw, this.input.names);
      this.rawCalls.push(named);
      calls.push(loopCall(named));
    }
    const text = reply.message && typeof reply.message.content === 'string' && reply.message.content !== '' ? reply.message.content : null;
    const turn: LoopAnswer = {
      ok: true,
      text,
      calls,
      inputTokens: reply.inputTokens,
      outputTokens: reply.outputTokens,
      model: reply.model,
      message: reply.message,
    };
    return turn;
  }

  addResults(turn: LoopAnswer, results: readonly LoopToolResult[]): void {
    this.messages.push(assistantParam(turn.message as Fields));
    for (const result of results) this.messages.push({ role: 'tool', tool_call_id: result.call.id, content: result.content });
  }

  addUserMessage(text: string): void {
    this.messages.push({ role: 'user', content: text });
  }

  addAnswer(turn: LoopAnswer): void {
    this.messages.push(isFields(turn.message) ? assistantParam(turn.message) : { role: 'assistant', content: turn.text ?? '' });
  }

  /**
   * The output stage 1 reads for the calls made since `from` (an index into rawCalls) and the last answer: a synthetic
   * assistant message with the last message's fields and every one of those calls, or the last completion as is when
   * it had no message and no call was made.
   */
  outputSince(from: number, last: LoopAnswer): unknown {
    const calls = this.rawCalls.slice(from);
    const message = last.message;
    if (isFields(message)) return synthetic(message, calls);
    return calls.length === 0 ? this.lastCompletion : synthetic({ role: 'assistant', content: null }, calls);
  }
}

/** A call as the loop sees it; a call that is not a function call gets an empty name (refused: its arguments are unreadable). */
function loopCall(raw: unknown): LoopCall {
  if (!isFields(raw)) return { id: '', name: '', arguments: undefined };
  const id = typeof raw.id === 'string' ? raw.id : '';
  if (!isFields(raw.function) || typeof raw.function.name !== 'string') return { id, name: '(not a function call)', arguments: undefined };
  return { id, name: raw.function.name, arguments: raw.function.arguments };
}

/** The assistant turn to send back: only the fields a request accepts (not `annotations`, `audio`, ...), wire names. */
function assistantParam(message: Fields): ChatCompletionMessageParam {
  const content = typeof message.content === 'string' ? message.content : null;
  return { role: 'assistant', content, tool_calls: message.tool_calls } as ChatCompletionMessageParam;
}

function synthetic(last: Fields, calls: unknown[]): Fields {
  const { tool_calls: _ignored, ...rest } = last;
  return calls.length === 0 ? rest : { ...rest, tool_calls: calls };
}
