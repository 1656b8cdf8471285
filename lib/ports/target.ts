import type { JsonObject, TargetKind, TestCase, ToolCatalog, Trajectory } from '../domain/index.js';

export interface InvokeOptions {
  /** cancels the invocation; the invoker rethrows the signal's reason (cancellation is not a target failure) */
  abortSignal?: AbortSignal;
  /** the delivery attempt of the message that asked for this invocation (1-based, informational) */
  attempt?: number;
}

/** The target answered (whatever it said: a garbage answer is still a success here; stage 1 judges it). */
export interface TargetSuccess {
  ok: true;
  /**
   * The raw output, in a format stage 1 (lib/evaluation/syntax parseToolCalls) parses: an OpenAI chat message or
   * completion, Anthropic content, Responses items, a JSON array of calls, Python call text, or plain text.
   */
  output: unknown;
  latency_ms: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** the model the endpoint reports (e.g. `gpt-4o-2024-08-06`), null when it reports none */
  client_version: string | null;
  /** the agent that answered, for multi-agent endpoints */
  agent?: string;
  /** why the endpoint routed the question to that agent */
  routing_reason?: string;
  /** the entities the endpoint says it resolved (an http target's `entities_path`) */
  entities?: JsonObject;
  /** tool calls the target executed itself (the OpenAI agentic loop), 0 otherwise */
  api_calls_made: number;
  /** requests made, retries included */
  attempts: number;
  /** every step of a tool loop (model turns, calls, results), when the target ran one */
  trajectory?: Trajectory;
  /** the tools the model was offered when they come from the target itself (an MCP server's snapshot): stage 1 validates against them */
  tool_catalog?: ToolCatalog;
  /**
   * A conversation case (`turns`): what the target answered at each turn, in order, having seen the conversation so
   * far; `output` is then the last turn's. The tokens and cost above are the whole conversation's.
   */
  turns?: TargetTurnOutput[];
}

/** One turn of a conversation as a target answered it. */
export interface TargetTurnOutput {
  /** the turn's raw output, in any format stage 1 parses */
  output: unknown;
  /** the tool loop of this turn, when the target ran one */
  trajectory?: Trajectory;
  input_tokens: number;
  output_tokens: number;
}

export type TargetErrorCode = 'target_error' | 'target_timeout';

/** The target did not answer. `message` is a sentence a person can act on. */
export interface TargetFailure {
  ok: false;
  error_code: TargetErrorCode;
  message: string;
  latency_ms: number;
  attempts: number;
  /** true when the circuit breaker refused the call without trying */
  circuit_open?: boolean;
  /** another attempt may succeed (timeouts, network errors, HTTP 408/429/5xx); read by the retry policy */
  retryable?: boolean;
  /** the wait the target asked for (Retry-After), in ms */
  retry_after_ms?: number;
  /** the HTTP status, when the target answered with one */
  http_status?: number;
}

export type TargetInvocation = TargetSuccess | TargetFailure;

/**
 * Invokes one target system for one test case. Never throws for a target failure (it returns `ok: false`);
 * throws TargetConfigurationError for broken configuration, and the abort reason when the caller cancels.
 */
export interface TargetInvoker {
  readonly targetId: string;
  readonly kind: TargetKind;
  invoke(testCase: TestCase, options?: InvokeOptions): Promise<TargetInvocation>;
}

/** Whether a failure is worth another attempt: explicit `retryable`, else timeouts only. */
export function isRetryableFailure(failure: TargetFailure): boolean {
  if (failure.circuit_open) return false;
  return failure.retryable ?? failure.error_code === 'target_timeout';
}
