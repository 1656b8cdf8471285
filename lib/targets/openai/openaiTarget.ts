import type { OpenAI } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { isConversation, type TestCase, type ToolCatalog } from '../../domain/index.js';
import {
  type ApiProvider,
  elapsedMs,
  type InvokeOptions,
  type SecretResolver,
  type TargetInvocation,
  type TargetInvoker,
  type TargetSuccess,
} from '../../ports/index.js';
import { TargetConfigurationError } from '../errors.js';
import { ChatCompletionsConversation, runAgenticLoop } from './agenticLoop.js';
import { NO_TOOL_EXECUTION, runConversationLoop } from '../toolLoop/conversationLoop.js';
import { catalogTools, isFields, messageWithCatalogNames, readCompletion, type ChatTurn } from './chatTurn.js';
import { checkClientSettings, createOpenAIClient, type AzureADTokenProvider } from './openaiClient.js';
import { failureFromRequestError } from './openaiFailure.js';
import type { OpenAISettings } from './openaiSettings.js';
import { ToolNameMap } from './toolNames.js';
import { recordLlmCall } from '../../telemetry/index.js';

export interface OpenAITargetOptions {
  /** resolves settings.api_key */
  secrets: SecretResolver;
  /** the target's tools, sent as `tools` (names OpenAI rejects are mapped, see ToolNameMap) */
  catalog?: ToolCatalog;
  /** executes tool calls in the agentic loop (required when settings.agentic_loop.enabled) */
  apiProvider?: ApiProvider;
  /** a ready client (tests, or a shared one); default: built from the settings on first use */
  client?: OpenAI;
  /** default `openai` */
  targetId?: string;
  /** Microsoft Entra ID tokens for Azure OpenAI targets without `api_key` (the host supplies them) */
  azureADTokenProvider?: AzureADTokenProvider;
  /** the fetch the built client uses (the platform passes its outbound-policy fetch); default the SDK's */
  fetch?: typeof globalThis.fetch;
}

/**
 * Any OpenAI-compatible chat-completions endpoint (Azure OpenAI included). One invocation is one request
 * (system prompt, the question, the catalog's tools, temperature) and its output the assistant message, or with
 * `agentic_loop.enabled` a conversation in which the model's calls are executed (see agenticLoop.ts).
 * Tokens from `usage`, cost from `settings.pricing` (0 without), client_version = the model the response names.
 * One attempt per invoke and no client retries: ResilientTarget adds timeout, retries and the breaker.
 */
export class OpenAITarget implements TargetInvoker {
  readonly kind = 'openai' as const;
  readonly targetId: string;
  private readonly names: ToolNameMap;
  private readonly tools: ReturnType<typeof catalogTools>;
  private clientPromise: Promise<OpenAI> | undefined;

  constructor(
    private readonly settings: OpenAISettings,
    private readonly options: OpenAITargetOptions,
  ) {
    this.targetId = options.targetId ?? 'openai';
    if (!options.client) checkClientSettings(settings, this.targetId, Boolean(options.azureADTokenProvider));
    if (settings.agentic_loop?.enabled && !options.apiProvider) {
      throw new TargetConfigurationError(
        'settings.agentic_loop',
        `target ${this.targetId}: settings.agentic_loop.enabled needs a stage-3 API provider to execute the model's tool calls`,
      );
    }
    this.names = new ToolNameMap(options.catalog?.tools.map((tool) => tool.name) ?? []);
    this.tools = catalogTools(options.catalog, this.names);
    if (options.client) this.clientPromise = Promise.resolve(options.client);
  }

  /** Builds the client now (resolving the API key), so broken configuration fails at start-up. */
  async ready(): Promise<void> {
    await this.client();
  }

  async invoke(testCase: TestCase, options: InvokeOptions = {}): Promise<TargetInvocation> {
    const { abortSignal } = options;
    abortSignal?.throwIfAborted();
    const client = await this.client();
    const started = performance.now();
    const send = (messages: ChatCompletionMessageParam[]) => this.send(client, messages, abortSignal, started);
    const loop = this.settings.agentic_loop;
    if (isConversation(testCase)) return this.invokeConversation(testCase, send, started, abortSignal);
    const messages = this.openingMessages(testCase);
    if (loop?.enabled) {
      const outcome = await runAgenticLoop({
        testCase,
        messages,
        maxTurns: loop.max_turns,
        send,
        apiProvider: this.options.apiProvider!,
        names: this.names,
        abortSignal,
      });
      if (!outcome.ok) return outcome.failure;
      return {
        ...this.success(outcome.output, outcome.input_tokens, outcome.output_tokens, outcome.model, outcome.api_calls_made, started),
        trajectory: outcome.trajectory,
      };
    }
    const turn = await send(messages);
    if (!turn.ok) return turn.failure;
    const output = turn.message ? messageWithCatalogNames(turn.message, this.names) : turn.completion;
    return this.success(output, turn.inputTokens, turn.outputTokens, turn.model, 0, started);
  }

  /**
   * A conversation case: one chat, the user's turns added one by one; each turn is a tool loop (or one request when
   * the loop is off, its calls not executed), and the model sees every earlier message, its answers and tool results.
   */
  private async invokeConversation(
    testCase: TestCase,
    send: (messages: ChatCompletionMessageParam[]) => Promise<ChatTurn>,
    started: number,
    abortSignal: AbortSignal | undefined,
  ): Promise<TargetInvocation> {
    const loop = this.settings.agentic_loop;
    const enabled = loop?.enabled === true;
    const tools = enabled ? this.options.apiProvider! : NO_TOOL_EXECUTION;
    const maxTurns = enabled ? loop!.max_turns : 1;
    const opening: ChatCompletionMessageParam[] = this.settings.system_prompt
      ? [{ role: 'system', content: this.settings.system_prompt }]
      : [];
    const chat = new ChatCompletionsConversation({
      testCase,
      messages: opening,
      maxTurns,
      send,
      apiProvider: tools,
      names: this.names,
      abortSignal,
    });
    let from = 0;
    const outcome = await runConversationLoop({
      testCase,
      maxTurns,
      protocol: chat,
      tools,
      abortSignal,
      keepTrajectory: enabled,
      outputOf: (turn) => {
        const output = chat.outputSince(from, turn.last);
        from = chat.rawCalls.length;
        return output;
      },
    });
    if (!outcome.ok) return outcome.failure;
    const last = outcome.turns.at(-1)!;
    return {
      ...this.success(last.output, outcome.input_tokens, outcome.output_tokens, outcome.model, outcome.api_calls_made, started),
      turns: outcome.turns,
    };
  }

  private openingMessages(testCase: TestCase): ChatCompletionMessageParam[] {
    const messages: ChatCompletionMessageParam[] = [];
    if (this.settings.system_prompt) messages.push({ role: 'system', content: this.settings.system_prompt });
    messages.push({ role: 'user', content: testCase.nl_query });
    return messages;
  }

  private async send(
    client: OpenAI,
    messages: ChatCompletionMessageParam[],
    abortSignal: AbortSignal | undefined,
    started: number,
  ): Promise<ChatTurn> {
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.settings.model,
      messages,
      ...(this.tools.length > 0 ? { tools: this.tools } : {}),
      ...(this.settings.temperature === undefined ? {} : { temperature: this.settings.temperature }),
    };
    let completion: unknown;
    const requested = performance.now();
    try {
      completion = await client.chat.completions.create(body, { maxRetries: 0, signal: abortSignal ?? null });
    } catch (error) {
      return { ok: false, failure: failureFromRequestError(error, { abortSignal, started, model: this.settings.model }) };
    }
    if (isFields(completion)) {
      const turn = readCompletion(completion);
      if (turn.ok) recordLlmCall('target', this.settings.model, turn.inputTokens, turn.outputTokens, performance.now() - requested);
      return turn;
    }
    const got = typeof completion === 'string' ? `text: ${JSON.stringify(completion.slice(0, 120))}` : String(completion);
    return {
      ok: false,
      failure: {
        ok: false,
        error_code: 'target_error',
        message: `the endpoint did not answer with a chat completion (${got})`,
        latency_ms: elapsedMs(started),
        attempts: 1,
        retryable: false,
      },
    };
  }

  private success(
    output: unknown,
    inputTokens: number,
    outputTokens: number,
    model: string | null,
    apiCalls: number,
    started: number,
  ): TargetSuccess {
    const pricing = this.settings.pricing;
    const cost = pricing ? (inputTokens * pricing.input_per_mtok + outputTokens * pricing.output_per_mtok) / 1_000_000 : 0;
    return {
      ok: true,
      output,
      latency_ms: elapsedMs(started),
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      cost_usd: cost,
      client_version: model,
      api_calls_made: apiCalls,
      attempts: 1,
    };
  }

  private client(): Promise<OpenAI> {
    if (!this.clientPromise) {
      const building = createOpenAIClient(
        this.settings,
        this.options.secrets,
        this.targetId,
        this.options.azureADTokenProvider,
        this.options.fetch,
      );
      this.clientPromise = building;
      building.catch(() => {
        if (this.clientPromise === building) this.clientPromise = undefined; // try again next time
      });
    }
    return this.clientPromise;
  }
}
