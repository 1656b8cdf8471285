import { performance } from 'node:perf_hooks';
import type { CoercionKind, CoercionPolicy, StageResult, ToolCall, ToolCatalog } from '../../domain/index.js';
import type { CallIssue } from './callIssue.js';
import type { OutputFormat } from './outcome.js';
import { parseToolCalls } from './parseToolCalls.js';
import { validateCalls } from './validateCalls.js';
import { toleratedCoercion } from './coercionTolerance.js';

export interface RunSyntaxStageOptions {
  /** when given, every call is validated against its tool's JSON Schema */
  catalog?: ToolCatalog;
  /**
   * the run's coercion policy: catalog type/enum issues it would coerce (numeric strings, boolean strings, 5.0
   * for an integer, enum case) do not fail the gate; they are listed in details.tolerated and judged in stage 2
   */
  coercion?: CoercionPolicy;
}

export interface SyntaxStageOutput {
  result: StageResult;
  /** the parsed calls (on a parse failure, those that did parse) */
  calls: ToolCall[];
  answer: string | null;
  format: OutputFormat | 'unknown';
}

/** `details` of the syntax StageResult. */
export interface SyntaxDetails {
  format: OutputFormat | 'unknown';
  /** catalog issues (empty when parsing failed or no catalog was given) */
  issues: CallIssue[];
  /** catalog issues the coercion policy accepts, with the coercion that applies */
  tolerated?: Array<CallIssue & { coercion: CoercionKind }>;
}

const MAX_ISSUES_IN_MESSAGE = 3;

/**
 * Stage 1, the syntax gate: parse the raw output, then (with a catalog) validate the calls. Passes with score 1
 * when parsing succeeded and no call breaks the catalog; otherwise fails with score 0, the first problem's
 * error code, and a message listing up to three issues.
 */
export function runSyntaxStage(raw: unknown, options: RunSyntaxStageOptions = {}): SyntaxStageOutput {
  const started = performance.now();
  const parsed = parseToolCalls(raw);
  const { calls, answer, format } = parsed;
  if (!parsed.ok) {
    const details: SyntaxDetails = { format, issues: [] };
    return { result: failed(started, parsed.error_code, parsed.message, details), calls, answer, format };
  }
  const found = options.catalog ? validateCalls(calls, options.catalog) : [];
  const issues: CallIssue[] = [];
  const tolerated: Array<CallIssue & { coercion: CoercionKind }> = [];
  for (const issue of found) {
    const coercion = options.coercion ? toleratedCoercion(issue, calls[issue.call_index]!, options.coercion) : undefined;
    // the issues are this call's own objects: the coercion is added in place (a spread per issue is a runtime call)
    if (coercion) tolerated.push(Object.assign(issue, { coercion }));
    else issues.push(issue);
  }
  const details: SyntaxDetails = tolerated.length ? { format, issues, tolerated } : { format, issues };
  const first = issues[0];
  if (first !== undefined) {
    return { result: failed(started, first.error_code, issuesMessage(issues), details), calls, answer, format };
  }
  const result: StageResult = {
    stage: 'syntax',
    status: 'passed',
    passed: true,
    score: 1,
    details,
    duration_ms: performance.now() - started,
  };
  return { result, calls, answer, format };
}

function failed(started: number, error_code: StageResult['error_code'], message: string, details: SyntaxDetails): StageResult {
  return {
    stage: 'syntax',
    status: 'failed',
    passed: false,
    score: 0,
    error_code,
    message,
    details,
    duration_ms: performance.now() - started,
  };
}

function issuesMessage(issues: readonly CallIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES_IN_MESSAGE).map((i) => i.message);
  const rest = issues.length - shown.length;
  return rest > 0 ? `${shown.join('; ')}; and ${rest} more issue${rest > 1 ? 's' : ''}` : shown.join('; ');
}
