import { z } from 'zod';

/**
 * Reference metrics: classical text-similarity scores of the answer against the case's expected_nl_response,
 * reported beside the judge (they never decide pass/fail). bleu = sacreBLEU sentence BLEU (13a, exp smoothing),
 * rouge1/rouge2/rougeL = rouge-score F1, chrf = sacreBLEU chrF2, embedding_cosine = cosine of the two embeddings.
 */
export const REFERENCE_METRIC_NAMES = ['bleu', 'rouge1', 'rouge2', 'rougeL', 'chrf', 'embedding_cosine'] as const;
export const ReferenceMetricNameSchema = z.enum(REFERENCE_METRIC_NAMES);
export type ReferenceMetricName = z.infer<typeof ReferenceMetricNameSchema>;

export const ReferenceMetricResultSchema = z.object({
  name: ReferenceMetricNameSchema,
  /** bleu and chrf on 0-1 (sacreBLEU's 0-100 divided by 100); cosine in [-1, 1]; null when skipped */
  score: z.number().min(-1).max(1).nullable(),
  /** why the metric has no score: no reference text, no answer, no embedder configured, the embedder failed */
  skipped_reason: z.string().optional(),
});
export type ReferenceMetricResult = z.infer<typeof ReferenceMetricResultSchema>;
