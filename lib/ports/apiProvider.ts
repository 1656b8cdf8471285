import type { ExecutionConfig, JsonValue, TestCase, ToolCall } from '../domain/index.js';

/** The provider kinds; the same list as the config's `execution.provider`, so the factory stays exhaustive. */
export type ApiProviderKind = ExecutionConfig['provider'];

/** What a provider knows about the call it executes. */
export interface ExecuteContext {
  testCase: TestCase;
  /** index of the expected call this call was matched to by stage 2, or null when unmatched */
  expectedIndex: number | null;
  /** cancels the call; a provider rethrows the signal's reason (cancellation is not an API failure) */
  abortSignal?: AbortSignal;
  /** per-call timeout, overriding the provider's default */
  timeoutInMs?: number;
}

export interface ApiSuccess {
  ok: true;
  status: number;
  data: JsonValue;
  durationMs: number;
}

export interface ApiFailure {
  ok: false;
  errorCode: 'execution_failed' | 'no_recording';
  /** a sentence a person can act on: what was called, what went wrong */
  message: string;
  /** the HTTP status, when the API answered */
  status?: number;
  durationMs: number;
  /** a failure the case scripted (a stateful case's `environment.faults`): the model's to handle, never an infrastructure fault */
  scripted?: boolean;
}

export type ApiResponse = ApiSuccess | ApiFailure;

/**
 * Stage 3's port: execute one tool call against an API (live, recorded or the case's expected data).
 * Never throws for an API failure (it returns `ok: false`); throws only for broken configuration
 * (ExecutionConfigurationError) or when the caller's abortSignal fires.
 */
export interface ApiProvider {
  /** `mcp`: the tools of a target's MCP servers (lib/targets/mcp), executing a model's calls in its tool loop */
  readonly kind: ApiProviderKind;
  execute(call: ToolCall, context: ExecuteContext): Promise<ApiResponse>;
  /**
   * A provider with state (an environment, lib/environments; an MCP server keyed by session) opens one session per
   * conversation: a conversation (every turn of a conversation case, or one case's tool loop) calls it once per case
   * invocation and executes that conversation's calls on the session. Idempotent on a session: `openSession` on the
   * provider it returned returns that same session. Stateless providers omit it.
   */
  openSession?(context: Pick<ExecuteContext, 'testCase'>): ApiProvider;
}

/**
 * True when a failure says something about the call itself (the API rejected it with a 4xx other than
 * 408/429), so the call can be scored 0. Any other failure (network, timeout, 5xx, 408/429, no recording)
 * says nothing about the call: stage 3 could not score it.
 */
export function failureBlamesCall(failure: ApiFailure): boolean {
  const { errorCode, status } = failure;
  return errorCode === 'execution_failed' && status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}
