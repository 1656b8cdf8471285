import { z } from 'zod';

/** One question of an evaluation job, in the shape evaluation-as-a-service callers send. */
export const CompatQuestionSchema = z
  .object({
    question: z.string().trim().min(1),
    expected_outcome: z
      .object({
        /** the expected answer: judged against the endpoint's `response` (stage 4) */
        response: z.string().trim().min(1),
        /** the agent that should answer (compared with the endpoint's `agent`, trimmed, ignoring case) */
        agent: z.string().trim().min(1).optional(),
        /** why it should be routed there (compared with the endpoint's `reason` by the reference heuristic) */
        reason: z.string().trim().min(1).optional(),
      })
      .strict(),
  })
  .strict();

export const MAX_COMPAT_QUESTIONS = 1000;

/** `POST /api/evaluate`: an endpoint answering `{response, agent, reason}` to `{"question": "..."}`, and the questions. */
export const CompatEvaluateRequestSchema = z
  .object({
    target_url: z.url({ protocol: /^https?$/, error: 'an http(s) URL' }),
    questions: z.array(CompatQuestionSchema).min(1).max(MAX_COMPAT_QUESTIONS),
    /** a question, an answer and a reason pass at or above this score (default 0.7) */
    pass_threshold: z.number().min(0).max(1).default(0.7),
    /** the semantic judge: `local` (offline heuristic, default) or `openai` (OPENAI_* / AZURE_OPENAI_* settings) */
    judge: z.enum(['local', 'openai']).default('local'),
    /** the request body sent to target_url; `{{question}}` becomes the question as a JSON string */
    request_template: z.string().min(1).default('{"question": {{question}}}'),
  })
  .strict();
export type CompatEvaluateRequest = z.infer<typeof CompatEvaluateRequestSchema>;

export const CompatJobStatusSchema = z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']);
export type CompatJobStatus = z.infer<typeof CompatJobStatusSchema>;

/** One scorer's verdict, for one question or for the whole job. */
export const ScorerResultSchema = z.object({
  name: z.string(),
  /** 0-1; null when the scorer could not score (nothing to compare, not applicable, the judge failed) */
  score: z.number().min(0).max(1).nullable(),
  passed: z.boolean().nullable(),
  weight: z.number(),
  rationale: z.string(),
});
export type ScorerResult = z.infer<typeof ScorerResultSchema>;

export const CompatQuestionResultSchema = z.object({
  question_id: z.string(),
  question: z.string(),
  passed: z.boolean(),
  score: z.number().nullable(),
  response: z.string().nullable(),
  agent: z.string().nullable(),
  reason: z.string().nullable(),
  expected_outcome: z.object({ response: z.string().nullable(), agent: z.string().nullable(), reason: z.string().nullable() }),
  /** the target's error, when it did not answer */
  error: z.string().nullable(),
  scorer_results: z.array(ScorerResultSchema),
});
export type CompatQuestionResult = z.infer<typeof CompatQuestionResultSchema>;

/** `GET /api/evaluate/{job_id}`: progress, and once the job has finished its verdict. */
export const CompatJobSchema = z.object({
  job_id: z.string(),
  status: CompatJobStatusSchema,
  status_url: z.string(),
  total_questions: z.number().int(),
  progress: z.object({ completed: z.number().int(), total: z.number().int(), percent: z.number() }),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  error: z.string().nullable(),
  /** the platform's own records behind the job */
  run_id: z.string(),
  target_id: z.string(),
  passed: z.boolean().optional(),
  overall_score: z.number().nullable().optional(),
  scorer_results: z.array(ScorerResultSchema).optional(),
  summary: z.string().optional(),
  results: z.array(CompatQuestionResultSchema).optional(),
});
export type CompatJob = z.infer<typeof CompatJobSchema>;

export const CompatJobAcceptedSchema = z.object({
  job_id: z.string(),
  status: CompatJobStatusSchema,
  status_url: z.string(),
  total_questions: z.number().int(),
});
