/**
 * Why a judge gave up:
 * - `invalid_output`: the model's replies never parsed as a valid verdict (bad JSON, out-of-range score, truncated);
 * - `refused`: the model refused to grade;
 * - `http_error`: the API answered with an error status (non-retryable, or retries spent on 429/5xx);
 * - `network`: the connection failed or timed out on every attempt;
 * - `aborted`: the caller's abortSignal fired (a cancellation, not a verdict);
 * - `no_reference`: there was nothing to judge against (no expected answer and no facts);
 * - `budget_exhausted`: the organization's monthly budget is spent, so the judge was not called (stage 4 records
 *   error code `budget_exhausted`, not scored).
 */
export type JudgeFailureReason = 'invalid_output' | 'refused' | 'http_error' | 'network' | 'aborted' | 'no_reference' | 'budget_exhausted';

export interface JudgeErrorDetails {
  reason: JudgeFailureReason;
  /** how many requests were made before giving up */
  attempts?: number;
  /** HTTP status of the last failed response, if any */
  status?: number;
  /** tokens and cost spent on the failed attempts (they are billed even though no verdict came of them) */
  input_tokens?: number;
  output_tokens?: number;
  cost_usd?: number;
  cause?: unknown;
}

/** Thrown by a judge that could not produce a verdict. Stage 4 records it as status `error`, code `judge_failed`. */
export class JudgeError extends Error {
  readonly code = 'judge_failed' as const;
  readonly reason: JudgeFailureReason;
  readonly attempts: number;
  readonly status: number | undefined;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cost_usd: number;

  constructor(message: string, details: JudgeErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'JudgeError';
    this.reason = details.reason;
    this.attempts = details.attempts ?? 0;
    this.status = details.status;
    this.input_tokens = details.input_tokens ?? 0;
    this.output_tokens = details.output_tokens ?? 0;
    this.cost_usd = details.cost_usd ?? 0;
  }
}

export function isJudgeError(error: unknown): error is JudgeError {
  return error instanceof JudgeError;
}
