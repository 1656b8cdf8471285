import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';

/**
 * How well a judge (model + rubric) agrees with people on one annotation task whose items it also judged. Id:
 * `<judge_model>~<rubric_id>` (one calibration per model and rubric; a newer one replaces it).
 */
export const JudgeCalibrationSchema = z
  .object({
    id: z.string().min(1),
    /** the owning organization, stamped by the organization-scoped stores (absent: `default`) */
    organization: OrganizationFieldSchema,
    judge_model: z.string().min(1),
    /** the rubric's content hash (G-Eval criteria), or `holistic` / `heuristic` for judges without criteria */
    rubric_id: z.string().min(1),
    task_id: z.string().min(1),
    run_id: z.string().min(1),
    /** how the human labels were compared: pass/fail, or the 1-5 scale */
    label_kind: z.enum(['pass_fail', 'scale']),
    /** items with a judge verdict and a human consensus */
    items: z.number().int().nonnegative(),
    /** items skipped because the people tied (no consensus) or the judge could not score */
    skipped: z.number().int().nonnegative(),
    raw_agreement: z.number().min(0).max(1).nullable(),
    /** Cohen's kappa, judge vs human consensus; null when undefined (one label everywhere) */
    kappa: z.number().nullable(),
    /** rows: human consensus, columns: judge; labels in `labels` order */
    labels: z.array(z.string()),
    confusion: z.array(z.array(z.number().int().nonnegative())),
    /**
     * position-swap consistency of the same model as a pairwise judge: stored pairwise verdicts of this model whose
     * two orders agreed (absent when there are none)
     */
    position_swap: z
      .object({ pairs: z.number().int().positive(), consistent: z.number().int().nonnegative(), rate: z.number().min(0).max(1) })
      .optional(),
    /** what the human labels are: from the task (e.g. "3 annotators") or a note on how they were made */
    provenance: z.string(),
    created_at: z.iso.datetime({ offset: true }),
  })
  .strict();
export type JudgeCalibration = z.infer<typeof JudgeCalibrationSchema>;

export const calibrationId = (judgeModel: string, rubricId: string): string => `${judgeModel}~${rubricId}`;
