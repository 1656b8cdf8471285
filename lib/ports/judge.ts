import { z } from 'zod';
import { FactImportanceSchema } from '../domain/index.js';

/** What a judge is asked: the question, the reference material and the answer to grade. */
export const JudgeInputSchema = z.object({
  question: z.string(),
  /** The gold natural-language answer (TestCase.expected_nl_response). */
  expected_answer: z.string().optional(),
  /** Key facts the answer must state (TestCase.expected_facts). */
  expected_facts: z.array(z.string()).default([]),
  /** Importance of each expected fact, aligned by index (absent: all `important`). */
  fact_importance: z.array(FactImportanceSchema).optional(),
  /** The natural-language answer under evaluation. */
  actual_answer: z.string(),
  /** The tool calls the agent made (context for LLM judges; ignored by the heuristic). */
  tool_calls: z.unknown().optional(),
  /** The data those calls returned (context for LLM judges; ignored by the heuristic). */
  raw_data: z.unknown().optional(),
});
export type JudgeInput = z.infer<typeof JudgeInputSchema>;

export const JUDGE_METHODS = ['llm', 'heuristic'] as const;
export const JudgeMethodSchema = z.enum(JUDGE_METHODS);
export type JudgeMethod = z.infer<typeof JudgeMethodSchema>;

/** One rubric criterion's verdict (G-Eval). */
export const CriterionVerdictSchema = z.object({
  name: z.string(),
  /** on the 1-5 rubric: probability-weighted when `method` is `logprobs`, else the integer the model wrote */
  score: z.number().min(1).max(5),
  /** the integer the model wrote */
  integer_score: z.number().int().min(1).max(5),
  method: z.enum(['logprobs', 'integer']),
  /** p(1)..p(5) from the log-probabilities (logprobs only) */
  probabilities: z.array(z.number()).length(5).optional(),
  /** the model's step-by-step analysis */
  reasoning: z.string(),
  weight: z.number().positive(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative(),
});
export type CriterionVerdict = z.infer<typeof CriterionVerdictSchema>;

/** A judge's verdict on one answer. Tokens and cost cover every attempt it took (0 when served from cache). */
export const JudgeVerdictSchema = z.object({
  /** 0 = wrong or missing, 1 = fully correct and complete. */
  score: z.number().min(0).max(1),
  reasoning: z.string(),
  /** How sure the judge is of the score: the LLM's self-report, or how much reference material the heuristic had. */
  confidence: z.number().min(0).max(1),
  /** The model that judged (the heuristic's name for `heuristic`). */
  model: z.string(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative(),
  cached: z.boolean(),
  method: JudgeMethodSchema,
  /** Remarks about the verdict's accounting (e.g. "no price known for model x: cost reported as 0"). */
  notes: z.array(z.string()).optional(),
  /** per-criterion scores when the judge scored rubric criteria (score is then their weighted mean, mapped to 0-1) */
  criteria: z.array(CriterionVerdictSchema).optional(),
  /** what identifies the rubric the verdict was made with (the criteria's content hash), for calibration */
  rubric_id: z.string().optional(),
});
export type JudgeVerdict = z.infer<typeof JudgeVerdictSchema>;

export interface JudgeOptions {
  abortSignal?: AbortSignal;
}

/**
 * The semantic judge port. `judge` resolves with a verdict or throws a `JudgeError` (code judge_failed) once
 * its retries are spent; any other exception is a bug or broken infrastructure.
 */
export interface Judge {
  readonly name: string;
  readonly method: JudgeMethod;
  judge(input: JudgeInput, options?: JudgeOptions): Promise<JudgeVerdict>;
}
