import type { Anthropic } from '@anthropic-ai/sdk';
import { type AnthropicTargetSettings, isConversation, type TestCase, type ToolCatalog } from '../../domain/index.js';
import {
  type ApiProvider,
  elapsedMs,
  type InvokeOptions,
  type SecretResolver,
  type TargetInvocation,
  type TargetInvoker,
  type TargetSuccess,
} from '../../ports/index.js';
import { recordLlmCall } from '../../telemetry/index.js';
import { TargetConfigurationError } from '../errors.js';
import { ToolNameMap } from '../openai/toolNames.js';
import { runToolLoop, type LoopAnswer, type LoopToolResult, type LoopTurn } from '../toolLoop/toolLoop.js';
import { type ConversationProtocol, NO_TOOL_EXECUTION, runConversationLoop } from '../toolLoop/conversationLoop.js';
import { createAnthropicClient } from './anthropicClient.js';
import { failureFromAnthropicError } from './anthropicFailure.js';
import { anthropicTools, isFields, messageCost, outputMessage, readMessage, systemParam, type Fields } from './anthropicMessage.js';

export interface AnthropicTargetOptions {
  secrets: SecretResolver;
  /** the tools offered to the model (a tool catalog, or an MCP server's snapshot) */
  catalog?: ToolCatalog;
  /** executes the model's tool_use blocks in the loop (required when settings.agentic_loop.enabled) */
  apiProvider?: ApiProvider;
  client?: Anthropic;
  targetId?: string;
}

/**
 * Claude through the Messages API at any Anthropic-compatible base URL. One invocation is one request (system
 * prompt, the question, the tools, temperature, max_tokens), or with `agentic_loop.enabled` a tool_use/tool_result
 * conversation run by the shared tool loop (lib/targets/toolLoop) with the same turn cap as the openai target.
 * Tokens include prompt-cache writes and reads; cost prices each at its rate. One attempt per invoke, no client
 * retries: ResilientTarget adds timeout, retries and the breaker.
 */
export class AnthropicTarget implements TargetInvoker {
  readonly kind = 'anthropic' as const;
  readonly targetId: string;
  private readonly names: ToolNameMap;
  private readonly tools: Fields[];
  private clientPromise: Promise<Anthropic> | undefined;

  constructor(
    private readonly settings: AnthropicTargetSettings,
    private readonly options: AnthropicTargetOptions,
  ) {
    this.targetId = options.targetId ?? 'anthropic';
    if (settings.agentic_loop?.enabled && !options.apiProvider) {
      throw new TargetConfigurationError(
        'settings.agentic_loop',
        `target ${this.targetId}: settings.agentic_loop.enabled needs a tool executor (the run's stage-3 provider or the target's MCP servers) to execute the model's tool calls`,
      );
    }
    this.names = new ToolNameMap(options.catalog?.tools.map((tool) => tool.name) ?? []);
    this.tools = anthropicTools(options.catalog, this.names, settings.prompt_caching);
    if (options.client) this.clientPromise = Promise.resolve(options.client);
  }

  async ready(): Promise<void> {
    await this.client();
  }

  async invoke(testCase: TestCase, options: InvokeOptions = {}): Promise<TargetInvocation> {
    const { abortSignal } = options;
    abortSignal?.throwIfAborted();
    const client = await this.client();
    const started = performance.now();
    if (isConversation(testCase)) return this.invokeConversation(testCase, client, started, abortSignal);
    const conversation = new MessagesConversation(client, this.settings, this.tools, this.names, testCase.nl_query, abortSignal, started);
    const loop = this.settings.agentic_loop;
    if (loop?.enabled) {
      const outcome = await runToolLoop({
        testCase,
        maxTurns: loop.max_turns,
        protocol: conversation,
        tools: this.options.apiProvider!,
        abortSignal,
      });
      if (!outcome.ok) return outcome.failure;
      const last = outcome.last.message as Fields;
      return {
        ...this.success(outcome.input_tokens, outcome.output_tokens, outcome.cost_usd ?? 0, outcome.model, outcome.api_calls_made, started),
        output: outputMessage(last, readContent(last), outcome.calls),
        trajectory: outcome.trajectory,
      };
    }
    const turn = await conversation.send();
    if (!turn.ok) return turn.failure;
    const message = turn.message as Fields;
    return {
      ...this.success(turn.inputTokens, turn.outputTokens, turn.costUsd ?? 0, turn.model, 0, started),
      output: outputMessage(message, readContent(message), turn.calls),
    };
  }

  /**
   * A conversation case: one Messages API conversation, the user's turns added one by one; each turn is a
   * tool_use/tool_result loop (or one request when the loop is off, its calls not executed) that sees the history.
   */
  private async invokeConversation(
    testCase: TestCase,
    client: Anthropic,
    started: number,
    abortSignal: AbortSignal | undefined,
  ): Promise<TargetInvocation> {
    const loop = this.settings.agentic_loop;
    const enabled = loop?.enabled === true;
    const conversation = new MessagesConversation(client, this.settings, this.tools, this.names, null, abortSignal, started);
    const outcome = await runConversationLoop({
      testCase,
      maxTurns: enabled ? loop!.max_turns : 1,
      protocol: conversation,
      tools: enabled ? this.options.apiProvider! : NO_TOOL_EXECUTION,
      abortSignal,
      keepTrajectory: enabled,
      outputOf: (turn) => {
        const last = turn.last.message as Fields;
        return outputMessage(last, readContent(last), turn.calls);
      },
    });
    if (!outcome.ok) return outcome.failure;
    return {
      ...this.success(outcome.input_tokens, outcome.output_tokens, outcome.cost_usd ?? 0, outcome.model, outcome.api_calls_made, started),
      output: outcome.turns.at(-1)!.output,
      turns: outcome.turns,
    };
  }

  private success(
    inputTokens: number,
    outputTokens: number,
    cost: number,
    model: string | null,
    apiCalls: number,
    started: number,
  ): Omit<TargetSuccess, 'output'> {
    return {
      ok: true,
      latency_ms: elapsedMs(started),
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      cost_usd: cost,
      client_version: model,
      api_calls_made: apiCalls,
      attempts: 1,
    };
  }

  private client(): Promise<Anthropic> {
    if (!this.clientPromise) {
      const building = createAnthropicClient(this.settings, this.options.secrets, this.targetId);
      this.clientPromise = building;
      building.catch(() => {
        if (this.clientPromise === building) this.clientPromise = undefined;
      });
    }
    return this.clientPromise;
  }
}

function readContent(message: Fields): unknown[] {
  return Array.isArray(message.content) ? (message.content as unknown[]) : [];
}

/** One Messages API conversation: the history, one request per `send`, tool results appended as a user turn. */
class MessagesConversation implements ConversationProtocol {
  private readonly messages: Fields[];

  constructor(
    private readonly client: Anthropic,
    private readonly settings: AnthropicTargetSettings,
    private readonly tools: Fields[],
    private readonly names: ToolNameMap,
    question: string | null,
    private readonly abortSignal: AbortSignal | undefined,
    private readonly started: number,
  ) {
    this.messages = question === null ? [] : [{ role: 'user', content: question }];
  }

  /** The user's next message; after tool results (a user turn already) it joins that turn as a text block. */
  addUserMessage(text: string): void {
    const last = this.messages.at(-1);
    if (last?.role === 'user' && Array.isArray(last.content)) last.content = [...(last.content as unknown[]), { type: 'text', text }];
    else this.messages.push({ role: 'user', content: text });
  }

  /** A turn's final answer stays in the history (tool_use blocks never reach here: the loop answered them). */
  addAnswer(turn: LoopAnswer): void {
    const content = readContent(turn.message as Fields);
    this.messages.push({ role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: turn.text ?? '' }] });
  }

  async send(): Promise<LoopTurn> {
    const system = systemParam(this.settings);
    const body = {
      model: this.settings.model,
      max_tokens: this.settings.max_tokens,
      messages: this.messages,
      ...(system === undefined ? {} : { system }),
      ...(this.tools.length > 0 ? { tools: this.tools } : {}),
      ...(this.settings.temperature === undefined ? {} : { temperature: this.settings.temperature }),
    } as unknown as Anthropic.MessageCreateParamsNonStreaming;
    const requested = performance.now();
    let answer: unknown;
    try {
      answer = await this.client.messages.create(body, { maxRetries: 0, ...(this.abortSignal ? { signal: this.abortSignal } : {}) });
    } catch (error) {
      return {
        ok: false,
        failure: failureFromAnthropicError(error, { abortSignal: this.abortSignal, started: this.started, model: this.settings.model }),
      };
    }
    if (!isFields(answer) || !Array.isArray(answer.content)) {
      const got = typeof answer === 'string' ? `text: ${JSON.stringify(answer.slice(0, 120))}` : JSON.stringify(answer)?.slice(0, 120);
      return {
        ok: false,
        failure: {
          ok: false,
          error_code: 'target_error',
          message: `the endpoint did not answer with a Messages API message (${got})`,
          latency_ms: elapsedMs(this.started),
          attempts: 1,
          retryable: false,
        },
      };
    }
    const reading = readMessage(answer, this.names);
    recordLlmCall('target', this.settings.model, reading.inputTokens, reading.outputTokens, performance.now() - requested);
    return {
      ok: true,
      text: reading.text,
      calls: reading.calls,
      inputTokens: reading.inputTokens,
      outputTokens: reading.outputTokens,
      costUsd: messageCost(reading, this.settings.pricing),
      model: reading.model,
      message: answer,
    };
  }

  addResults(turn: LoopAnswer, results: readonly LoopToolResult[]): void {
    const message = turn.message as Fields;
    // a tool_use whose input is not an object (the loop refused to run it) is sent back with {} so the request stays valid
    const content = readContent(message).map((block) =>
      isFields(block) && block.type === 'tool_use' && !isFields(block.input) ? { ...block, input: {} } : block,
    );
    this.messages.push({ role: 'assistant', content });
    this.messages.push({
      role: 'user',
      content: results.map((result) => ({
        type: 'tool_result',
        tool_use_id: result.call.id,
        content: result.content,
        ...(result.ok ? {} : { is_error: true }),
      })),
    });
  }
}
