import { z } from 'zod';
import { ToolCallSchema } from './toolCall.js';
import { ErrorCodeSchema, StageNameSchema, StageResultSchema } from './stageResult.js';
import { TrajectorySchema } from './trajectory.js';
import { OutcomeKindSchema } from './outcomeKind.js';
import { ReferenceMetricResultSchema } from './referenceMetric.js';
import { CompatVerdictSchema } from './bfclReference.js';
import { TurnResultSchema } from './conversation.js';
import { EfficiencySchema } from './efficiency.js';

/** Per-tool outcome of one case: did the expected calls of this tool get made, and right. */
export const ToolResultSchema = z.object({
  tool_name: z.string(),
  expected_calls: z.number().int().nonnegative(),
  actual_calls: z.number().int().nonnegative(),
  matched_calls: z.number().int().nonnegative(),
  passed: z.boolean(),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

/**
 * The result of one trial of one case in one run. Keyed by (run_id, test_case_id, trial); trial 1 (the only one
 * unless the run asks for `trials: k`) is stored without a `trial` field, under the key it always had.
 */
export const ScorecardSchema = z.object({
  run_id: z.string().min(1),
  test_case_id: z.string().min(1),
  /** the trial (1..k) of a run with `trials: k`; absent = 1 */
  trial: z.number().int().min(2).optional(),
  timestamp: z.iso.datetime({ offset: true }),
  stages: z.object({
    syntax: StageResultSchema,
    logic: StageResultSchema,
    execution: StageResultSchema,
    semantics: StageResultSchema,
  }),
  /** the first stage that failed (or errored), if any: reports and filters use it */
  failing_stage: StageNameSchema.optional(),
  /** the error code of the failing stage */
  error_code: ErrorCodeSchema.optional(),
  /** a conversation case: the 0-based index of the first turn that did not pass (failing_stage and error_code are that turn's) */
  failing_turn: z.number().int().nonnegative().optional(),
  /** a conversation case: each turn's stages and what the agent did in it; `stages` then hold, per stage, the first turn that failed it */
  turns: z.array(TurnResultSchema).optional(),
  /** calls made vs needed, redundant calls, model turns and tokens, beside pass/fail; absent when the target did not answer */
  efficiency: EfficiencySchema.optional(),
  generated_tool_calls: z.array(ToolCallSchema),
  generated_nl_response: z.string().nullable(),
  /** what a multi-agent endpoint reported: the agent that answered and why it was routed there (absent when it says nothing) */
  agent: z.string().optional(),
  routing_reason: z.string().optional(),
  /** the entities a multi-agent endpoint says it resolved (orchestrator mode scores them against expected_entities) */
  entities: z.record(z.string(), z.json()).optional(),
  /** every step of the agent's tool loop (model turns, calls with arguments, results or errors), when it ran one */
  trajectory: TrajectorySchema.optional(),
  tool_results: z.array(ToolResultSchema),
  /** reference metrics the run enabled (semantics.reference_metrics), beside the judge; absent when none */
  reference_metrics: z.array(ReferenceMetricResultSchema).optional(),
  overall_passed: z.boolean(),
  /** with a compatibility mode (`compat: "bfcl"`): that scorer's verdict, which `overall_passed` then is, and the platform's own */
  compat: CompatVerdictSchema.optional(),
  overall_score: z.number().min(0).max(1),
  /** passed, failed (the model's fault) or not_scored (infrastructure): `outcomeKindOf` of this card; absent on cards written before it existed */
  outcome: OutcomeKindSchema.optional(),
  /** target invocation latency (ms); 0 for offline scoring of recorded outputs */
  latency_ms: z.number().nonnegative(),
  /** total time spent in the four stages (ms) */
  evaluation_ms: z.number().nonnegative(),
  worker_id: z.string(),
  attempt_number: z.number().int().positive(),
  client_type: z.string(),
  client_version: z.string().nullable(),
  eval_mode: z.enum(['offline', 'replay', 'live']),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  api_calls_made: z.number().int().nonnegative(),
  estimated_cost_usd: z.number().nonnegative(),
  /** copied from the case so breakdowns need no join */
  category: z.string().nullable(),
  tags: z.array(z.string()),
  complexity_level: z.number().int().min(1).max(5),
  /** the published suite version the run evaluated (absent: the live suite) */
  suite_version: z.number().int().positive().optional(),
  /** content hash of the case body evaluated (caseContentHash): comparisons across versions pair equal hashes only */
  case_hash: z.string().optional(),
});
export type Scorecard = z.infer<typeof ScorecardSchema>;
