import { z } from 'zod';

/** What an annotator gives per item: a 1-5 score, pass/fail, one of some categories, or free text. */
export const AnnotationLabelSchemaSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('scale') }).strict(),
  z.object({ kind: z.literal('pass_fail') }).strict(),
  z
    .object({
      kind: z.literal('categories'),
      categories: z
        .array(z.string().min(1))
        .min(2)
        .refine((c) => new Set(c).size === c.length, 'categories must differ'),
    })
    .strict(),
  z.object({ kind: z.literal('free_text') }).strict(),
]);
export type AnnotationLabelSchema = z.infer<typeof AnnotationLabelSchemaSchema>;

/** What an annotation task covers: a suite's cases, or the scorecards of a run (items are test case ids). */
export const AnnotationSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('suite'), suite_id: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('run'), run_id: z.string().min(1) }).strict(),
]);
export type AnnotationSource = z.infer<typeof AnnotationSourceSchema>;

export const AnnotationTaskSchema = z
  .object({
    id: z.string().min(1).max(200),
    name: z.string().min(1),
    instructions: z.string().optional(),
    source: AnnotationSourceSchema,
    label_schema: AnnotationLabelSchemaSchema,
    /** labels wanted per item (distinct annotators) */
    annotators_per_item: z.number().int().min(1).max(20).default(3),
    item_count: z.number().int().nonnegative(),
    created_at: z.iso.datetime({ offset: true }),
    created_by: z.string().min(1),
  })
  .strict();
export type AnnotationTask = z.infer<typeof AnnotationTaskSchema>;

export const AnnotationLabelValueSchema = z.union([z.string().min(1), z.number().finite()]);

export const AnnotationSchema = z
  .object({
    task_id: z.string().min(1),
    item_id: z.string().min(1),
    annotator: z.string().min(1),
    label: AnnotationLabelValueSchema,
    comment: z.string().max(4_000).optional(),
    /**
     * Set on a label imported with the task's import route (made elsewhere, not submitted by the annotator through
     * `next`/`label`): who imported it and where the labels come from, so nobody mistakes them for live annotations.
     */
    imported: z
      .object({ by: z.string().min(1), provenance: z.string().min(1).max(1_000) })
      .strict()
      .optional(),
    created_at: z.iso.datetime({ offset: true }),
  })
  .strict();
export type Annotation = z.infer<typeof AnnotationSchema>;

/** Why a label does not fit the task's label schema, or undefined when it fits. */
export function labelProblem(schema: AnnotationLabelSchema, label: string | number): string | undefined {
  switch (schema.kind) {
    case 'scale':
      return typeof label === 'number' && Number.isInteger(label) && label >= 1 && label <= 5
        ? undefined
        : 'must be an integer from 1 to 5';
    case 'pass_fail':
      return label === 'pass' || label === 'fail' ? undefined : 'must be "pass" or "fail"';
    case 'categories':
      return typeof label === 'string' && schema.categories.includes(label)
        ? undefined
        : `must be one of ${schema.categories.map((c) => JSON.stringify(c)).join(', ')}`;
    case 'free_text':
      return typeof label === 'string' && label.trim() !== '' ? undefined : 'must be non-empty text';
  }
}
