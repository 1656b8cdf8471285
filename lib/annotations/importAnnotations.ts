import { z } from 'zod';
import { AnnotationLabelValueSchema, labelProblem, type Annotation } from '../domain/index.js';
import { ConflictError, NotFoundError, type Clock, type Stores } from '../ports/index.js';
import { AnnotationInputError } from './annotationTasks.js';

/** Most labels one import request may carry (a bigger file is sent in several requests). */
export const MAX_IMPORTED_LABELS = 5_000;

export const ImportAnnotationsSchema = z
  .object({
    /**
     * Where the labels come from, in words a reader of the export or a calibration can trust (who made them and
     * how: e.g. "generated from the sample's mistake catalogue, not human raters"). Stored on every label.
     */
    provenance: z.string().trim().min(1).max(1_000),
    labels: z
      .array(
        z
          .object({
            item_id: z.string().min(1),
            annotator: z
              .string()
              .min(1)
              .max(200)
              .regex(/^[A-Za-z0-9._:@-]+$/, 'letters, digits and . _ : @ - only'),
            label: AnnotationLabelValueSchema,
            comment: z.string().max(4_000).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_IMPORTED_LABELS),
  })
  .strict();
export type ImportAnnotations = z.infer<typeof ImportAnnotationsSchema>;

export interface ImportResult {
  task_id: string;
  imported: number;
  /** labels per annotator in this import */
  annotators: Array<{ annotator: string; labels: number }>;
}

/**
 * Stores labels made elsewhere (another tool, a spreadsheet, a generated answer key) as the named annotators'
 * labels on a task, each marked `imported: {by, provenance}`. The whole request is checked before anything is
 * stored: every item belongs to the task, every label fits its schema, no (item, annotator) twice in the request or
 * already labelled, no item past its N labels. Then the labels go through the store's `submit`, as an annotator's
 * would (its rules still hold under concurrent submissions: a race is a ConflictError naming the item).
 */
export async function importAnnotations(
  taskId: string,
  body: ImportAnnotations,
  importedBy: string,
  deps: { stores: Stores; clock: Clock },
): Promise<ImportResult> {
  const task = await deps.stores.annotations.getTask(taskId);
  if (!task) throw new NotFoundError('annotation task', taskId);
  const [items, existing] = await Promise.all([deps.stores.annotations.listItems(taskId), deps.stores.annotations.listAnnotations(taskId)]);
  const known = new Set(items);
  const perItem = new Map<string, number>();
  const seen = new Set(existing.map((a) => `${a.item_id}\u0000${a.annotator}`));
  for (const a of existing) perItem.set(a.item_id, (perItem.get(a.item_id) ?? 0) + 1);
  body.labels.forEach((row, i) => {
    if (!known.has(row.item_id))
      throw new AnnotationInputError(`labels[${i}].item_id`, `"${row.item_id}" is not an item of task ${taskId}`);
    const problem = labelProblem(task.label_schema, row.label);
    if (problem) throw new AnnotationInputError(`labels[${i}].label`, problem);
    const key = `${row.item_id}\u0000${row.annotator}`;
    if (seen.has(key))
      throw new ConflictError('annotation item', `${taskId}/${row.item_id}`, `already has a label by ${row.annotator} (labels[${i}])`);
    seen.add(key);
    const n = (perItem.get(row.item_id) ?? 0) + 1;
    if (n > task.annotators_per_item)
      throw new ConflictError(
        'annotation item',
        `${taskId}/${row.item_id}`,
        `would get more than its ${task.annotators_per_item} label(s) (labels[${i}])`,
      );
    perItem.set(row.item_id, n);
  });
  const now = deps.clock.now().toISOString();
  const imported = { by: importedBy, provenance: body.provenance };
  const counts = new Map<string, number>();
  for (const row of body.labels) {
    const annotation: Annotation = {
      task_id: taskId,
      item_id: row.item_id,
      annotator: row.annotator,
      label: row.label,
      ...(row.comment ? { comment: row.comment } : {}),
      imported,
      created_at: now,
    };
    await deps.stores.annotations.submit(annotation, { now });
    counts.set(row.annotator, (counts.get(row.annotator) ?? 0) + 1);
  }
  return {
    task_id: taskId,
    imported: body.labels.length,
    annotators: [...counts].map(([annotator, labels]) => ({ annotator, labels })).sort((a, b) => a.annotator.localeCompare(b.annotator)),
  };
}
