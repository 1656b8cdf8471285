import type { ErrorCode, StageName } from '../../../../lib/domain/index.js';
import type { BenignLabel, Call } from '../scenarios/types.js';

export const MISTAKE_KINDS = [
  'wrong_enum_value',
  'invalid_enum_value',
  'missing_optional_filter',
  'missing_required_argument',
  'wrong_date_format',
  'off_by_one_date',
  'wrong_id',
  'wrong_refund_amount',
  'wrong_tool',
  'hallucinated_extra_call',
  'duplicated_call',
  'dropped_parallel_call',
  'text_instead_of_call',
  'wrong_numbers_in_answer',
  'answers_out_of_scope',
  'call_on_abstention',
] as const;
export type MistakeKind = (typeof MISTAKE_KINDS)[number];

/** Deviations the default coercion policy accepts (the case passes) and the strict policy rejects. */
export const TOLERATED_KINDS = ['numeric_string', 'float_literal_integer', 'enum_case'] as const;
export type ToleratedKind = (typeof TOLERATED_KINDS)[number];

/** How the pipeline should judge an output: the first failing stage and its error code, or a pass. */
export interface IntendedVerdict {
  overall_passed: boolean;
  failing_stage?: StageName;
  error_code?: ErrorCode;
}

/** How the final answer is written. */
export type AnswerStyle =
  | { kind: 'from_results' }
  /** numbers misread from the data */
  | { kind: 'wrong_numbers'; factor: number }
  /** fixed text (a non-answer, an out-of-scope answer, a hallucinated action) */
  | { kind: 'text'; text: string };

/** What one model does on one case. */
export interface Behaviour {
  outcome: 'clean' | 'benign' | 'tolerated' | 'mistake';
  label: 'clean' | BenignLabel | ToleratedKind | MistakeKind;
  /** the calls made, aligned with the case's calls where they correspond (undefined: that call was not made) */
  calls: (Call | undefined)[];
  /** calls that correspond to none of the case's calls */
  extra: Call[];
  /** the order the calls are emitted in (indexes into [...defined calls, ...extra]); default as listed */
  order?: number[];
  /** an integer argument written as a float literal (`3.0`) in the argument text */
  floatLiteral?: { call: number; argument: string };
  answer: AnswerStyle;
  /** the verdict under the default coercion policy */
  intended: IntendedVerdict;
  /** the verdict under the strict policy, when it differs (tolerated deviations) */
  intendedStrict?: IntendedVerdict;
}

export function mistakeVerdict(stage: StageName, code: ErrorCode): IntendedVerdict {
  return { overall_passed: false, failing_stage: stage, error_code: code };
}

export const PASS: IntendedVerdict = { overall_passed: true };
