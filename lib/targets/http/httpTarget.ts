import { isConversation, type SecretRef, type TargetSettings, type TestCase } from '../../domain/index.js';
import {
  elapsedMs,
  type InvokeOptions,
  type SecretResolver,
  type TargetFailure,
  type TargetInvocation,
  type TargetInvoker,
  type TargetSuccess,
  type TargetTurnOutput,
} from '../../ports/index.js';
import { TargetConfigurationError, describeError, snippet } from '../errors.js';
import { isRetryableStatus, retryAfterInMs } from '../../resilience/index.js';
import { compileTemplate, type CompiledTemplate, type TemplateValues } from './requestTemplate.js';
import { extractResponse, queryPath, type ResponsePaths } from './responseExtraction.js';
import { extractUsage } from './usageExtraction.js';

export type HttpSettings = Extract<TargetSettings, { kind: 'http' }>;

export interface HttpTargetOptions {
  /** resolves header values given as secret references */
  secrets: SecretResolver;
  /** default `http` */
  targetId?: string;
  /** default: the global fetch */
  fetch?: typeof globalThis.fetch;
}

const PATH_SETTINGS = [
  'answer_path',
  'tool_calls_path',
  'agent_path',
  'reason_path',
  'entities_path',
  'input_tokens_path',
  'output_tokens_path',
  'cost_path',
  'model_path',
] as const;

/**
 * A generic agent endpoint. Sends `request_template` (POST/PUT; `{{question}}`, `{{test_case_id}}` substituted as
 * JSON, see requestTemplate.ts; GET sends no body) to `url` (placeholders there are percent-encoded), with
 * `headers` (secret references resolved at each call; JSON content-type and accept by default). Reads the JSON
 * answer with the JSONPath expressions of `response` (see responseExtraction.ts for the output shape).
 * Failures are data: network errors (retryable), non-2xx (status and a body snippet; 408/429/5xx retryable,
 * Retry-After honoured), a body that is not JSON. Tokens, cost, model and resolved entities come from the
 * response's `*_path` settings when set (usageExtraction.ts), else tokens and cost are 0 and client_version null. Throws TargetConfigurationError for a bad template, JSONPath or secret.
 */
export class HttpTarget implements TargetInvoker {
  readonly kind = 'http' as const;
  readonly targetId: string;
  private readonly url: CompiledTemplate;
  private readonly body: CompiledTemplate | undefined;
  private readonly paths: ResponsePaths & HttpSettings['response'];
  private readonly fetch: typeof globalThis.fetch;

  constructor(
    private readonly settings: HttpSettings,
    private readonly options: HttpTargetOptions,
  ) {
    this.targetId = options.targetId ?? 'http';
    this.fetch = options.fetch ?? globalThis.fetch;
    this.url = this.compile('settings.url', settings.url);
    this.body = settings.method === 'GET' ? undefined : this.compile('settings.request_template', settings.request_template);
    if (this.body && this.sendsJson()) this.checkRendersJson(this.body);
    this.paths = settings.response;
    for (const name of PATH_SETTINGS) {
      const path = this.paths[name];
      if (path === undefined) continue;
      try {
        queryPath({}, path);
      } catch (error) {
        throw this.configError(
          `settings.response.${name}`,
          `settings.response.${name} ${JSON.stringify(path)} is not a usable JSONPath: ${describeError(error)}`,
          error,
        );
      }
    }
  }

  /** Resolves the header secrets now, so broken configuration fails at start-up. */
  async ready(): Promise<void> {
    await this.headers();
  }

  async invoke(testCase: TestCase, options: InvokeOptions = {}): Promise<TargetInvocation> {
    const { abortSignal } = options;
    abortSignal?.throwIfAborted();
    const headers = await this.headers();
    if (isConversation(testCase)) return this.converse(testCase, headers, abortSignal);
    return this.request({ question: testCase.nl_query, test_case_id: testCase.id }, headers, abortSignal);
  }

  /**
   * A conversation case: one request per turn, each with `{{question}}` = the turn's user message and `{{messages}}` =
   * the conversation so far (earlier user messages and the agent's answers with their tool calls, then this turn's
   * message). The agent endpoint runs its own tools, so their results reach the history only through its answers.
   */
  private async converse(
    testCase: TestCase,
    headers: Record<string, string>,
    abortSignal: AbortSignal | undefined,
  ): Promise<TargetInvocation> {
    const history: unknown[] = [];
    const turns: TargetTurnOutput[] = [];
    const total = { latency_ms: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, attempts: 0 };
    let last: TargetSuccess | undefined;
    const all = testCase.turns ?? [];
    for (const [i, turn] of all.entries()) {
      history.push({ role: 'user', content: turn.user });
      const answer = await this.request({ question: turn.user, test_case_id: testCase.id, messages: [...history] }, headers, abortSignal);
      if (!answer.ok)
        return {
          ...answer,
          message: `turn ${i + 1} of ${all.length}: ${answer.message}`,
          latency_ms: total.latency_ms + answer.latency_ms,
        };
      total.latency_ms += answer.latency_ms;
      total.input_tokens += answer.input_tokens;
      total.output_tokens += answer.output_tokens;
      total.cost_usd += answer.cost_usd;
      total.attempts += answer.attempts;
      turns.push({ output: answer.output, input_tokens: answer.input_tokens, output_tokens: answer.output_tokens });
      history.push(assistantMessageOf(answer.output));
      last = answer;
    }
    return { ...last!, ...total, turns };
  }

  private async request(
    values: TemplateValues,
    headers: Record<string, string>,
    abortSignal: AbortSignal | undefined,
  ): Promise<TargetInvocation> {
    const url = this.url.renderUrl(values);
    const label = `${this.settings.method} ${url.split('?')[0]}`;
    const started = performance.now();
    const fail = (message: string, extra: Partial<TargetFailure> = {}): TargetFailure => ({
      ok: false,
      error_code: 'target_error',
      message: `target ${this.targetId}: ${message}`,
      latency_ms: elapsedMs(started),
      attempts: 1,
      retryable: false,
      ...extra,
    });
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(url, {
        method: this.settings.method,
        headers,
        ...(this.body ? { body: this.body.renderJson(values) } : {}),
        ...(abortSignal ? { signal: abortSignal } : {}),
      });
      text = await response.text();
    } catch (error) {
      if (abortSignal?.aborted) throw abortSignal.reason;
      // the outbound policy refused the destination (after DNS or on a redirect): retrying cannot help
      const refused = error instanceof Error && error.name === 'OutboundRefusedError';
      return fail(`${label} failed: ${describeError(error)}`, { retryable: !refused });
    }
    if (!response.ok) {
      const retryable = isRetryableStatus(response.status);
      const wait = retryable ? retryAfterInMs(response.headers) : undefined;
      return fail(`${label} answered HTTP ${response.status}: ${snippet(text)}`, {
        http_status: response.status,
        retryable,
        ...(wait === undefined ? {} : { retry_after_ms: wait }),
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const type = response.headers.get('content-type') ?? 'no content-type';
      return fail(`${label} answered HTTP ${response.status} with a body that is not JSON (${type}): ${snippet(text)}`, {
        http_status: response.status,
      });
    }
    let extracted;
    let usage;
    try {
      extracted = extractResponse(json, this.paths);
      usage = extractUsage(json, this.paths);
    } catch (error) {
      return fail(`cannot apply the settings.response paths to the answer: ${describeError(error)}`);
    }
    return {
      ok: true,
      ...extracted,
      latency_ms: elapsedMs(started),
      ...usage,
      api_calls_made: 0,
      attempts: 1,
    };
  }

  private async headers(): Promise<Record<string, string>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.body) headers['content-type'] = 'application/json';
    for (const [name, value] of Object.entries(this.settings.headers)) {
      headers[name.toLowerCase()] = typeof value === 'string' ? value : await this.resolve(name, value);
    }
    return headers;
  }

  private async resolve(header: string, ref: SecretRef): Promise<string> {
    try {
      return await this.options.secrets.resolve(ref);
    } catch (error) {
      throw this.configError(`settings.headers.${header}`, `header ${header} cannot be resolved: ${(error as Error).message}`, error);
    }
  }

  private sendsJson(): boolean {
    const entry = Object.entries(this.settings.headers).find(([name]) => name.toLowerCase() === 'content-type');
    return !entry || typeof entry[1] !== 'string' || /json/i.test(entry[1]);
  }

  private compile(setting: string, template: string): CompiledTemplate {
    try {
      return compileTemplate(template);
    } catch (error) {
      throw this.configError(setting, `${setting} ${(error as Error).message}`, error);
    }
  }

  private checkRendersJson(template: CompiledTemplate): void {
    const sample = template.renderJson({
      question: 'sample "question"',
      test_case_id: 'sample-id',
      messages: [{ role: 'user', content: 'sample "question"' }],
    });
    try {
      JSON.parse(sample);
    } catch (error) {
      throw this.configError(
        'settings.request_template',
        `settings.request_template does not render valid JSON (${(error as Error).message}): ${snippet(sample, 120)}`,
        error,
      );
    }
  }

  private configError(setting: string, message: string, cause: unknown): TargetConfigurationError {
    return new TargetConfigurationError(setting, `target ${this.targetId}: ${message}`, { cause });
  }
}

/** The agent's answer as a chat message for the history: its own assistant message, or its output as text. */
function assistantMessageOf(output: unknown): unknown {
  if (typeof output === 'object' && output !== null && !Array.isArray(output) && (output as { role?: unknown }).role === 'assistant') {
    const { role, content, tool_calls } = output as { role: string; content?: unknown; tool_calls?: unknown };
    return { role, content: content ?? null, ...(tool_calls === undefined ? {} : { tool_calls }) };
  }
  return { role: 'assistant', content: typeof output === 'string' ? output : JSON.stringify(output) };
}
