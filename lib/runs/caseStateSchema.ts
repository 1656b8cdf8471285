import { z } from 'zod';
import { EfficiencySchema, ReferenceMetricResultSchema, StageResultSchema, ToolCallSchema, TrajectorySchema } from '../domain/index.js';
import type { CaseState } from '../evaluation/index.js';

/**
 * The CaseState an execute or judge message carries, checked at the queue boundary: a message whose state is not
 * one (truncated, hand-edited, from an incompatible version) is poison, dead-lettered at once with this schema's
 * error, instead of throwing inside a batch. Checked against the CaseState type at compile time below.
 */
const StagesSchema = z.object({
  syntax: StageResultSchema,
  logic: StageResultSchema,
  execution: StageResultSchema,
  semantics: StageResultSchema,
});
const AssignmentSchema = z.array(z.object({ expected_index: z.number().int(), actual_index: z.number().int() }));

/** One turn of a conversation case part-way through the waterfall (TurnState). */
const TurnStateSchema = z.object({
  stages: StagesSchema,
  calls: z.array(ToolCallSchema),
  answer: z.string().nullable(),
  assignment: AssignmentSchema,
  call_set: z.number().int(),
  trajectory: TrajectorySchema.optional(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  api_data: z.unknown().optional(),
});

export const CaseStateSchema = z.object({
  run_id: z.string().min(1),
  test_case_id: z.string().min(1),
  trial: z.number().int().positive().optional(),
  stages: StagesSchema,
  calls: z.array(ToolCallSchema),
  answer: z.string().nullable(),
  assignment: AssignmentSchema,
  call_set: z.number().int(),
  invocation: z.object({
    latency_ms: z.number().nonnegative(),
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    cost_usd: z.number().nonnegative(),
    client_type: z.string(),
    client_version: z.string().nullable(),
    eval_mode: z.enum(['offline', 'replay', 'live']),
    agent: z.string().optional(),
    routing_reason: z.string().optional(),
    trajectory: TrajectorySchema.optional(),
    api_calls_made: z.number().int().nonnegative().optional(),
    entities: z.record(z.string(), z.json()).optional(),
  }),
  evaluation: z.object({
    api_calls_made: z.number().int().nonnegative(),
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    cost_usd: z.number().nonnegative(),
    ms: z.number().nonnegative(),
  }),
  worker_id: z.string(),
  attempt: z.number().int().positive(),
  reference_metrics: z.array(ReferenceMetricResultSchema).optional(),
  api_data: z.unknown().optional(),
  efficiency: EfficiencySchema.optional(),
  /** a conversation case: each turn's state (a turn lost or mangled on the way would score the conversation wrongly) */
  turns: z.array(TurnStateSchema).optional(),
});

// the schema and the pipeline's type must describe the same thing, optional fields included (Required: a field the
// schema forgot would otherwise pass unnoticed, being optional on one side and absent on the other)
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Parsed = z.infer<typeof CaseStateSchema>;
const sameShape: Same<Required<Parsed>, Required<CaseState>> = true;
const sameInvocation: Same<Required<Parsed['invocation']>, Required<CaseState['invocation']>> = true;
const sameTurn: Same<Required<NonNullable<Parsed['turns']>[number]>, Required<NonNullable<CaseState['turns']>[number]>> = true;
void [sameShape, sameInvocation, sameTurn];
