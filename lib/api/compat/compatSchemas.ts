import { z } from 'zod';
import { COMPAT_SCORER_NAMES, DEFAULT_REQUIRED_SCORERS } from './compatScorerNames.js';

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
    /**
     * the scorers that must pass for the job to pass (default: the endpoint answered, and the answer is right); the
     * others are optional: reported, weighted into the overall score, never failing the job on their own
     */
    required_scorers: z
      .array(z.enum(COMPAT_SCORER_NAMES))
      .min(1)
      .refine((names) => new Set(names).size === names.length, 'a scorer is named twice')
      .default([...DEFAULT_REQUIRED_SCORERS]),
  })
  .strict();
export type CompatEvaluateRequest = z.infer<typeof CompatEvaluateRequestSchema>;

/** queued (accepted, not started), running, completed (a verdict), failed (no verdict: the run failed, timed out or was cancelled) */
export const CompatJobStatusSchema = z.enum(['queued', 'running', 'completed', 'failed']);
export type CompatJobStatus = z.infer<typeof CompatJobStatusSchema>;

/** One scorer's verdict, for one question or for the whole job. */
export const ScorerResultSchema = z.object({
  name: z.string(),
  /** 0-1; null when the scorer could not score (nothing to compare, not applicable, the judge failed) */
  score: z.number().min(0).max(1).nullable(),
  passed: z.boolean().nullable(),
  weight: z.number(),
  /** a required scorer must pass for the job to pass (request `required_scorers`) */
  required: z.boolean(),
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
export const CompatProgressSchema = z.object({
  /** questions answered and scored, of all */
  completed: z.number().int(),
  total: z.number().int(),
  percent: z.number(),
  questions: z.object({ completed: z.number().int(), total: z.number().int() }),
  /** per scorer: questions it has a score for (`scored`) and questions it has looked at (`completed`), of all */
  scorers: z.array(z.object({ name: z.string(), completed: z.number().int(), scored: z.number().int(), total: z.number().int() })),
});

export const CompatJobSchema = z.object({
  job_id: z.string(),
  status: CompatJobStatusSchema,
  status_url: z.string(),
  total_questions: z.number().int(),
  progress: CompatProgressSchema,
  /** when the job was accepted (= created_at) */
  submitted_at: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** from start to completion, or to now while it runs; null before it starts */
  duration_seconds: z.number().nullable(),
  /** while running: the remaining questions at the pace so far; 0 once finished; null before the first answer */
  estimated_completion_seconds: z.number().nullable(),
  error: z.string().nullable(),
  /** the run's report (json, markdown, html) and its dashboard page */
  report_urls: z.object({ json: z.string(), markdown: z.string(), html: z.string(), dashboard: z.string() }),
  required_scorers: z.array(z.string()),
  /** the platform's own records behind the job */
  run_id: z.string(),
  target_id: z.string(),
  passed: z.boolean().optional(),
  overall_score: z.number().nullable().optional(),
  scorer_results: z.array(ScorerResultSchema).optional(),
  /** required scorers that passed / failed (a required scorer that could not score is in neither) */
  required_passed: z.array(z.string()).optional(),
  required_failed: z.array(z.string()).optional(),
  /** one entry per failed required scorer, with why */
  critical_issues: z.array(z.object({ scorer: z.string(), rationale: z.string() })).optional(),
  summary: z.string().optional(),
  results: z.array(CompatQuestionResultSchema).optional(),
});
export type CompatJob = z.infer<typeof CompatJobSchema>;

export const CompatJobAcceptedSchema = z.object({
  job_id: z.string(),
  status: CompatJobStatusSchema,
  status_url: z.string(),
  total_questions: z.number().int(),
  submitted_at: z.string(),
});
