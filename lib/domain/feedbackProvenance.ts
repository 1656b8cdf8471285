import { z } from 'zod';

/**
 * Where a case approved from production feedback came from (test case `metadata.feedback`; `metadata.source` is
 * then `production_feedback`): the logged interaction, its candidate, and who approved it when.
 */
export const FeedbackProvenanceSchema = z
  .object({
    interaction_id: z.string().min(1),
    candidate_id: z.string().min(1),
    client_id: z.string().min(1).optional(),
    target_id: z.string().min(1).optional(),
    /** why the interaction became a candidate */
    reason: z.enum(['corrected', 'failed', 'thumbs_down']),
    approved_by: z.string().min(1),
    approved_at: z.iso.datetime({ offset: true }),
  })
  .strict();
export type FeedbackProvenance = z.infer<typeof FeedbackProvenanceSchema>;
