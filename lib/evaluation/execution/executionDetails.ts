import type { DiffEntry } from '../../domain/index.js';
import type { ApiFailure, ApiResponse } from '../../ports/index.js';

/**
 * Stage 3's verdict on one expected call.
 * - `matched`: the call returned data equal to the expected data (within tolerance);
 * - `mismatch`: it returned data that differs (see `entries`);
 * - `missing`: no actual call was matched to this expected call by stage 2, so nothing was executed;
 * - `failed`: the provider returned no data (`error_code`, `message`, and `http_status` when the API answered).
 * `score` is the comparison's score, 0 for missing calls and calls the API rejected (4xx), and null when the
 * call could not be scored (network, timeout, 5xx, 408/429, no recording).
 */
export interface ExecutionCallDetail {
  expected_index: number;
  actual_index: number | null;
  tool_name: string;
  status: 'matched' | 'mismatch' | 'missing' | 'failed';
  score: number | null;
  entries: DiffEntry[];
  duration_ms: number;
  error_code?: ApiFailure['errorCode'];
  http_status?: number;
  message?: string;
}

/** StageResult.details of stage 3. */
export interface ExecutionDetails {
  relative_tolerance: number;
  ignore_paths: string[];
  calls: ExecutionCallDetail[];
}

/** One executed call and what the provider returned (the semantics stage may show the data to its judge). */
export interface ExecutedCall {
  expected_index: number;
  actual_index: number;
  tool_name: string;
  response: ApiResponse;
}

const SHOWN_PROBLEMS = 3;
const SHOWN_VALUE_CHARS = 60;

/** "#1 get_weather: 2 differences, first at /temp: expected 20, got 25; #2 ...; and 3 more" */
export function describeProblems(details: readonly ExecutionCallDetail[]): string {
  const shown = details.slice(0, SHOWN_PROBLEMS).map((d) => `#${d.expected_index} ${d.tool_name}: ${describeProblem(d)}`);
  const more = details.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}

function describeProblem(detail: ExecutionCallDetail): string {
  if (detail.status === 'missing') return 'the call was not made, so it returned no data';
  if (detail.status === 'failed') return detail.message ?? 'the provider returned no data';
  const differences = detail.entries.filter((entry) => entry.kind !== 'coerced');
  const first = differences[0];
  if (!first) return 'the data differs';
  const count = differences.length === 1 ? '1 difference' : `${differences.length} differences, first`;
  return `${count} at ${first.path || '/'}: ${describeDiffEntry(first)}`;
}

/**
 * One diff entry in words: its own message, else "missing (expected 20)", "not expected (got 20)" or
 * "expected 20, got 25"; values as JSON cut to `maxValueChars` (default 60) with "…". Reports use it too.
 */
export function describeDiffEntry(entry: DiffEntry, maxValueChars = SHOWN_VALUE_CHARS): string {
  const show = (value: unknown): string => {
    const text = JSON.stringify(value) ?? 'nothing';
    return text.length > maxValueChars ? `${text.slice(0, maxValueChars)}…` : text;
  };
  if (entry.message) return entry.message;
  if (entry.kind === 'missing') return `missing (expected ${show(entry.expected)})`;
  if (entry.kind === 'extra') return `not expected (got ${show(entry.actual)})`;
  return `expected ${show(entry.expected)}, got ${show(entry.actual)}`;
}

/** 0.0001 -> "0.01%" */
export function formatPercent(fraction: number): string {
  return `${Number((fraction * 100).toPrecision(6))}%`;
}
