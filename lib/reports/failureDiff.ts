import type { DiffEntry, Scorecard, StageName } from '../domain/index.js';
import { describeDiffEntry } from '../evaluation/index.js';

/** How many diff lines a failure shows, and how long a shown value may be. */
export const MAX_DIFF_LINES = 8;
const MAX_VALUE_CHARS = 80;

/** Why a case did not pass: its first failing (or erroring) stage, the error code, the message and the diff. */
export interface FailureDescription {
  stage: StageName;
  /** `error`: the stage could not score (infrastructure, judge); `failed`: it scored the case as wrong */
  status: 'failed' | 'error';
  error_code: string | null;
  message: string;
  /** one line per difference, e.g. `search_products /sort: expected "rating", got "relevance"` */
  diff: string[];
}

/** Undefined for a passing case. */
export function describeFailure(card: Scorecard): FailureDescription | undefined {
  if (card.overall_passed) return undefined;
  const stage =
    card.failing_stage ??
    (['syntax', 'logic', 'execution', 'semantics'] as const).find(
      (s) => card.stages[s].status === 'failed' || card.stages[s].status === 'error',
    );
  if (!stage) return undefined;
  const result = card.stages[stage];
  const message = result.message ?? '';
  return {
    stage,
    status: result.status === 'error' ? 'error' : 'failed',
    error_code: card.error_code ?? result.error_code ?? null,
    message,
    diff: withoutRepeats(message, diffLines(stage, result.details)),
  };
}

/** Diff lines that only restate the message (a one-issue failure's message is its diff) are left out. */
export function withoutRepeats(message: string, lines: readonly string[]): string[] {
  const key = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const said = key(message);
  return lines.filter((line) => key(line) !== said);
}

/** The diff of a stage's details (syntax issues, logic and execution call diffs), at most MAX_DIFF_LINES lines. */
export function diffLines(stage: StageName, details: unknown): string[] {
  const lines = allDiffLines(stage, details);
  return lines.length > MAX_DIFF_LINES ? [...lines.slice(0, MAX_DIFF_LINES - 1), `… and ${lines.length - MAX_DIFF_LINES + 1} more`] : lines;
}

function allDiffLines(stage: StageName, details: unknown): string[] {
  if (!isRecord(details)) return [];
  if (stage === 'syntax' && Array.isArray(details.issues)) {
    return details.issues.filter(isRecord).map((i) => String(i.message ?? i.error_code ?? 'invalid call'));
  }
  if ((stage === 'logic' || stage === 'execution') && Array.isArray(details.calls)) {
    return details.calls.filter(isRecord).flatMap((call) => callLines(stage, call));
  }
  return [];
}

function callLines(stage: StageName, call: Record<string, unknown>): string[] {
  const tool = String(call.tool_name ?? '?');
  if (call.status === 'missing') return [stage === 'logic' ? `missing call ${tool}` : `${tool}: not executed (the call was not made)`];
  if (call.status === 'extra') return [`unexpected call ${tool}`];
  if (call.status === 'failed') return [`${tool}: ${String(call.message ?? call.error_code ?? 'the API returned no data')}`];
  const entries = Array.isArray(call.entries) ? (call.entries as DiffEntry[]) : [];
  return entries.filter((e) => e.kind !== 'coerced').map((e) => `${tool} ${e.path || '/'}: ${describeDiffEntry(e, MAX_VALUE_CHARS)}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
