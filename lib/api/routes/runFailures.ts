import { z } from 'zod';
import { ErrorCodeSchema, STAGE_NAMES, StageNameSchema, StageStatusSchema, ToolCallSchema, type Scorecard } from '../../domain/index.js';

/** A failed case as `GET /api/v1/runs/{id}/failures` shows it. */
export const FailureViewSchema = z.object({
  test_case_id: z.string(),
  /** the first stage that failed or could not score */
  failing_stage: StageNameSchema.nullable(),
  error_code: ErrorCodeSchema.nullable(),
  overall_score: z.number(),
  /** every stage that failed or could not score, with its message and diff (the stage's `details`) */
  stages: z.array(
    z.object({
      stage: StageNameSchema,
      status: StageStatusSchema,
      score: z.number().nullable(),
      error_code: ErrorCodeSchema.nullable(),
      message: z.string().nullable(),
      diff: z.unknown(),
    }),
  ),
  generated_tool_calls: z.array(ToolCallSchema),
  generated_nl_response: z.string().nullable(),
  category: z.string().nullable(),
  tags: z.array(z.string()),
  complexity_level: z.number(),
  latency_ms: z.number(),
  attempt_number: z.number(),
});
export type FailureView = z.infer<typeof FailureViewSchema>;

export function failureView(card: Scorecard): FailureView {
  const stages = STAGE_NAMES.map((name) => card.stages[name]).filter((st) => st.status === 'failed' || st.status === 'error');
  return {
    test_case_id: card.test_case_id,
    failing_stage: card.failing_stage ?? null,
    error_code: card.error_code ?? null,
    overall_score: card.overall_score,
    stages: stages.map((st) => ({
      stage: st.stage,
      status: st.status,
      score: st.score,
      error_code: st.error_code ?? null,
      message: st.message ?? null,
      diff: st.details ?? null,
    })),
    generated_tool_calls: card.generated_tool_calls,
    generated_nl_response: card.generated_nl_response,
    category: card.category,
    tags: card.tags,
    complexity_level: card.complexity_level,
    latency_ms: card.latency_ms,
    attempt_number: card.attempt_number,
  };
}
