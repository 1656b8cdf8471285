import { z } from 'zod';
import { StageResultSchema, ToolCallSchema } from '../domain/index.js';
import type { CaseState } from '../evaluation/index.js';

/**
 * The CaseState an execute or judge message carries, checked at the queue boundary: a message whose state is not
 * one (truncated, hand-edited, from an incompatible version) is poison, dead-lettered at once with this schema's
 * error, instead of throwing inside a batch. Checked against the CaseState type at compile time below.
 */
export const CaseStateSchema = z.object({
  run_id: z.string().min(1),
  test_case_id: z.string().min(1),
  stages: z.object({ syntax: StageResultSchema, logic: StageResultSchema, execution: StageResultSchema, semantics: StageResultSchema }),
  calls: z.array(ToolCallSchema),
  answer: z.string().nullable(),
  assignment: z.array(z.object({ expected_index: z.number().int(), actual_index: z.number().int() })),
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
});

// the schema and the pipeline's type must describe the same thing
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.infer<typeof CaseStateSchema>, CaseState> = true;
void sameShape;
