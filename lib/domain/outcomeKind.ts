import { z } from 'zod';
import type { ErrorCode, StageName, StageStatus } from './stageResult.js';

/**
 * The three outcome kinds of a case (DESIGN §12): `passed`; `failed`, the model's fault; `not_scored`, the
 * platform could not score it (target, MCP server, judge, network, open circuit). A not-scored case never enters a
 * pass rate, a stage rate, a comparison or an alert; it has its own rate (the infrastructure-failure rate).
 */
export const OUTCOME_KINDS = ['passed', 'failed', 'not_scored'] as const;
export const OutcomeKindSchema = z.enum(OUTCOME_KINDS);
export type OutcomeKind = z.infer<typeof OutcomeKindSchema>;

/**
 * Who is to blame for each error code when it is a case's error code: `model` (the answer was wrong or missing),
 * `infrastructure` (the platform could not get or judge an answer) or `case` (the gold case itself is invalid: not
 * scored, reported under its own error code). Exhaustive: a new error code does not compile
 * until it is classified here. This table and `outcomeKindOf` are the only place that decides.
 */
export const ERROR_CODE_BLAME = {
  target_error: 'infrastructure',
  target_timeout: 'infrastructure',
  empty_output: 'model',
  unparseable_output: 'model',
  invalid_arguments_json: 'model',
  unknown_tool: 'model',
  missing_required_argument: 'model',
  wrong_argument_type: 'model',
  enum_violation: 'model',
  schema_violation: 'model',
  missing_call: 'model',
  extra_call: 'model',
  unexpected_call: 'model',
  wrong_tool: 'model',
  missing_argument: 'model',
  extra_argument: 'model',
  argument_mismatch: 'model',
  wrong_order: 'model',
  called_instead_of_clarifying: 'model',
  clarified_instead_of_calling: 'model',
  missing_clarification: 'model',
  redundant_call: 'model',
  // a 4xx from the API is the call's fault (status `failed`); network errors, 5xx, timeouts are status `error`
  execution_failed: 'model',
  no_recording: 'model',
  no_expected_data: 'model',
  data_mismatch: 'model',
  judge_failed: 'infrastructure',
  // the organization's monthly budget ran out: the judge was not called (lib/tenancy budgets); nobody's score
  budget_exhausted: 'infrastructure',
  no_reference: 'model',
  no_answer: 'model',
  low_semantic_score: 'model',
  wrong_agent: 'model',
  entity_mismatch: 'model',
  missing_critical_fact: 'model',
  // issue 12; a scripted API failure is part of the case, so not recovering from it is the model's
  data_flow_mismatch: 'model',
  unresolved_reference: 'model',
  missing_recovery: 'model',
  called_when_irrelevant: 'model',
  // (called_instead_of_clarifying, clarified_instead_of_calling, missing_clarification: above, shared with conversation turns)
  state_mismatch: 'model',
  // the gold itself is broken: nobody's score, counted apart (its own error code among the not scored)
  invalid_case: 'case',
} as const satisfies Record<ErrorCode, 'model' | 'infrastructure' | 'case'>;

/** What `outcomeKindOf` reads: a Scorecard and a CaseOutcome (the statistics projection) both fit. */
export interface OutcomeFacts {
  overall_passed: boolean;
  error_code?: string | undefined;
  failing_stage?: string | undefined;
  stages?: Partial<Record<StageName, { status: StageStatus | string } | undefined>> | undefined;
}

/**
 * The outcome kind of a case. Not scored when it did not pass and its failing stage could not score (status
 * `error`: stage 3's network errors, the judge giving up, an MCP server that cannot be reached) or its error code
 * is an infrastructure code (`ERROR_CODE_BLAME`: target errors and timeouts, the breaker, judge outages).
 * Producers of new infrastructure failures feed this by setting the stage status `error` or an infrastructure code.
 */
export function outcomeKindOf(facts: OutcomeFacts): OutcomeKind {
  if (facts.overall_passed) return 'passed';
  const code = facts.error_code as ErrorCode | undefined;
  if (code !== undefined && ERROR_CODE_BLAME[code] !== undefined && ERROR_CODE_BLAME[code] !== 'model') return 'not_scored';
  const failing = facts.failing_stage as StageName | undefined;
  if (failing !== undefined && facts.stages?.[failing]?.status === 'error') return 'not_scored';
  return 'failed';
}

/** Whether a case counts in pass rates, stage rates, comparisons and alerts. */
export function isScored(facts: OutcomeFacts): boolean {
  return outcomeKindOf(facts) !== 'not_scored';
}
