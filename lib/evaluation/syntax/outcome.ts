import type { ErrorCode, ToolCall } from '../../domain/index.js';

/** The output shapes stage 1 recognises. */
export const OUTPUT_FORMATS = ['openai_chat', 'openai_responses', 'anthropic', 'json_array', 'python_calls', 'text'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface ParseSuccess {
  ok: true;
  format: OutputFormat;
  calls: ToolCall[];
  /** the natural-language part of the output; null when there is none */
  answer: string | null;
}

export interface ParseFailure {
  ok: false;
  format: OutputFormat | 'unknown';
  error_code: ErrorCode;
  /** a sentence a person can act on */
  message: string;
  /** the calls that did parse before the failure (may be empty) */
  calls: ToolCall[];
  answer: string | null;
}

/** What `parseToolCalls` returns: never throws, a failure is data. */
export type ParseOutcome = ParseSuccess | ParseFailure;

export function parseFailure(
  format: OutputFormat | 'unknown',
  error_code: ErrorCode,
  message: string,
  calls: ToolCall[] = [],
  answer: string | null = null,
): ParseFailure {
  return { ok: false, format, error_code, message, calls, answer };
}

/** Narrow a value that is either a ParseFailure or some other result. */
export function isParseFailure(value: object): value is ParseFailure {
  return (value as { ok?: unknown }).ok === false;
}
