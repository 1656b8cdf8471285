import { z } from 'zod';

export const STAGE_NAMES = ['syntax', 'logic', 'execution', 'semantics'] as const;
export const StageNameSchema = z.enum(STAGE_NAMES);
export type StageName = z.infer<typeof StageNameSchema>;

/**
 * Every error code a stage can report. A failed check is data: a StageResult with passed=false and one of these.
 * Codes are snake_case and stable: reports, alerts and the API filter on them.
 */
export const ERROR_CODES = {
  // stage 1: syntax (gate)
  target_error: 'The target system failed to answer (HTTP error, exception, circuit open).',
  target_timeout: 'The target system did not answer within its timeout.',
  empty_output: 'The target returned nothing to parse.',
  unparseable_output: 'The output is in none of the supported tool-call formats.',
  invalid_arguments_json: 'A tool call carries argument text that is not a JSON object.',
  unknown_tool: 'A call names a tool that is not in the catalog.',
  missing_required_argument: 'A call omits an argument its schema requires.',
  wrong_argument_type: 'An argument has a type its schema does not allow.',
  enum_violation: 'An argument is not one of the values its schema enumerates.',
  schema_violation: 'An argument breaks another rule of its schema (pattern, range, extra property, ...).',
  // stage 2: logic
  missing_call: 'An expected call was not made.',
  extra_call: 'A call was made that the case does not expect.',
  unexpected_call: 'The right answer was to make no call (abstain), but a call was made.',
  wrong_tool: 'A call was matched to an expected call of another tool.',
  missing_argument: 'An expected argument was not given.',
  extra_argument: 'An argument was given that the case does not expect.',
  argument_mismatch: 'An argument has the wrong value.',
  wrong_order: 'The calls were right but not in the required order.',
  called_instead_of_clarifying:
    'The right answer was a question for missing information (a turn expecting clarification, or a question lacking a required parameter), but the agent called.',
  clarified_instead_of_calling: 'The agent asked the user a question where it had what it needed and should have called.',
  missing_clarification: 'Missing information should have been asked for; the agent neither called nor asked.',
  redundant_call: 'The agent repeated a call with the same arguments and got the same result (fails only with fail_on_redundant_calls).',
  wrong_agent: 'The agent routed the question to another agent than expected (orchestrator mode).',
  entity_mismatch: 'The agent resolved entities other than the expected ones, or a wrong routing reason (orchestrator mode).',
  // issue 12: data flow, recovery and abstention (stage 2)
  data_flow_mismatch: 'An argument that should carry a value an earlier call returned ($from) carries another value.',
  unresolved_reference: 'An argument refers ($from) to a call that was not made before it, or to a path its result does not have.',
  missing_recovery: 'A scripted API failure was not recovered from (no retry, no other tool, the user not told).',
  called_when_irrelevant: 'The request is outside what the tools are for, but a call was made.',
  // stage 3: execution
  execution_failed: 'Calling the API failed (network error, HTTP error status, provider error).',
  no_recording: 'Replay mode found no recorded response for the call.',
  no_expected_data: 'The case has no expected raw data to compare with.',
  data_mismatch: 'The data the calls returned differs from the expected data.',
  state_mismatch: "A stateful case's final environment state differs from the state the gold calls produce from the same start.",
  invalid_case: "The case's gold calls do not replay cleanly on its initial state: the case is invalid, not scored.",
  // stage 4: semantics
  judge_failed: 'The judge could not produce a valid verdict (after retries).',
  budget_exhausted: "The organization's monthly budget is spent: stage 4 did not call the judge (not scored).",
  no_reference: 'The case has no expected answer or facts to judge against.',
  no_answer: 'The target gave no natural-language answer to judge.',
  low_semantic_score: 'The judge scored the answer below the pass threshold.',
  missing_critical_fact: 'The answer leaves out an expected fact marked critical (fails stage 4 whatever the score).',
} as const;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const StageStatusSchema = z.enum([
  'passed',
  'failed',
  /** the stage did not run: disabled by config, or stopped by the syntax gate */
  'skipped',
  /** the stage could not score (infrastructure or judge failure); distinct from a score of 0 */
  'error',
]);
export type StageStatus = z.infer<typeof StageStatusSchema>;

/** One stage's verdict. `score` is null when the stage could not score or was skipped (never confused with 0). */
export const StageResultSchema = z.object({
  stage: StageNameSchema,
  status: StageStatusSchema,
  passed: z.boolean(),
  score: z.number().min(0).max(1).nullable(),
  error_code: ErrorCodeSchema.optional(),
  /** A sentence a person can act on. */
  message: z.string().optional(),
  /** Stage-specific structured detail (diffs, judge reasoning, ...). */
  details: z.unknown().optional(),
  duration_ms: z.number().nonnegative(),
});
export type StageResult = z.infer<typeof StageResultSchema>;
