import type { TargetErrorCode } from '../../ports/index.js';

/**
 * An MCP server could not serve a call: it would not start, it exited (crashed) during the call, it hung past
 * `call_timeout_ms`, or the connection broke. An infrastructure fault, never the model's: the target turns it into a
 * target failure (`target_timeout` for a hang, `target_error` otherwise), retryable, so the case is tried again on
 * a restarted server and a model is never scored on it.
 */
export class McpServerUnavailableError extends Error {
  override readonly name = 'McpServerUnavailableError';
  constructor(
    readonly server: string,
    readonly errorCode: TargetErrorCode,
    message: string,
    options?: { cause?: unknown; neverStarted?: boolean },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.neverStarted = options?.neverStarted ?? false;
  }

  /** the server has not started once in this process (a broken command, URL or secret): no retry will help */
  readonly neverStarted: boolean;
}
