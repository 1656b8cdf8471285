import type { StageStatus } from '../stageResult.js';
import type { CaseOutcome } from './caseOutcome.js';
import type { OutcomeEfficiency } from '../efficiency.js';

const STATUS_CODES = { passed: 'p', failed: 'f', skipped: 's', error: 'e' } as const satisfies Record<StageStatus, string>;
const STATUS_BY_CODE: Record<string, StageStatus> = { p: 'passed', f: 'failed', s: 'skipped', e: 'error' };

// an unknown status folds like `error` (ran, did not pass), a missing one like `skipped`
const code = (status: StageStatus | undefined): string => (status === undefined ? 's' : (STATUS_CODES[status] ?? 'e'));
const num = (value: number): string => (Number.isFinite(value) ? String(value) : 'null');
const str = (value: string | null | undefined): string => (value === undefined || value === null ? 'null' : JSON.stringify(value));

/**
 * The compact canonical text of an outcome, as the run-statistics store keeps each counted case (~120 bytes
 * instead of ~430 for the object form, the biggest cost on the hot path): a JSON array
 * `[attempt_number, passed 0|1, overall_score, "<4 status letters p|f|s|e>", failing_stage, error_code,
 * latency_ms, input_tokens, output_tokens, estimated_cost_usd, category, tags, complexity_level, client_version]`
 * (absent optionals and non-finite numbers are null), and when the case has an efficiency a 15th element
 * `[calls_made, calls_needed, redundant_calls, model_turns, tokens, score]` (so an outcome without one is encoded
 * as before it existed). The ids are the row's key, not repeated. Equal outcomes
 * give equal text, so a redelivery is recognised by string comparison.
 */
export function encodeOutcome(o: CaseOutcome): string {
  const s = o.stages;
  return (
    `[${num(o.attempt_number)},${o.overall_passed ? 1 : 0},${num(o.overall_score)},` +
    `"${code(s?.syntax?.status)}${code(s?.logic?.status)}${code(s?.execution?.status)}${code(s?.semantics?.status)}",` +
    `${str(o.failing_stage)},${str(o.error_code)},${num(o.latency_ms)},${num(o.input_tokens)},${num(o.output_tokens)},` +
    `${num(o.estimated_cost_usd)},${str(o.category)},${JSON.stringify(o.tags ?? [])},${num(o.complexity_level)},${str(o.client_version)}` +
    (o.efficiency ? `,${efficiencyText(o.efficiency)}]` : ']')
  );
}

function efficiencyText(e: OutcomeEfficiency): string {
  return `[${num(e.calls_made)},${num(e.calls_needed)},${num(e.redundant_calls)},${num(e.model_turns)},${num(e.tokens)},${num(e.score)}]`;
}

/** Index of attempt_number in the encoded array (for SQL: `json_extract(outcome, '$[0]')`). */
export const ENCODED_ATTEMPT_PATH = '$[0]';

type Encoded = [
  number,
  0 | 1,
  number,
  string,
  string | null,
  string | null,
  number,
  number,
  number,
  number,
  string | null,
  string[],
  number,
  string | null,
  [number, number, number, number, number, number]?,
];

/** The outcome back from `encodeOutcome` text and its key. */
export function decodeOutcome(runId: string, testCaseId: string, text: string): CaseOutcome {
  const [
    attempt,
    passed,
    score,
    statuses,
    failingStage,
    errorCode,
    latency,
    input,
    output,
    cost,
    category,
    tags,
    complexity,
    clientVersion,
    efficiency,
  ] = JSON.parse(text) as Encoded;
  const status = (i: number): { status: StageStatus } => ({ status: STATUS_BY_CODE[statuses[i] ?? 's'] ?? 'error' });
  const outcome: CaseOutcome = {
    run_id: runId,
    test_case_id: testCaseId,
    attempt_number: attempt,
    overall_passed: passed === 1,
    overall_score: score ?? 0,
    stages: { syntax: status(0), logic: status(1), execution: status(2), semantics: status(3) },
    latency_ms: latency ?? 0,
    input_tokens: input ?? 0,
    output_tokens: output ?? 0,
    estimated_cost_usd: cost ?? 0,
    category,
    tags,
    complexity_level: complexity,
    client_version: clientVersion,
  };
  if (failingStage !== null) outcome.failing_stage = failingStage;
  if (errorCode !== null) outcome.error_code = errorCode;
  if (efficiency) {
    const [made, needed, redundant, turns, tokens, score] = efficiency;
    outcome.efficiency = { calls_made: made, calls_needed: needed, redundant_calls: redundant, model_turns: turns, tokens, score };
  }
  return outcome;
}
