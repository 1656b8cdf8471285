import { z } from 'zod';
import {
  AnnotationLabelSchemaSchema,
  AnnotationSourceSchema,
  AnnotationTaskSchema,
  labelProblem,
  type Annotation,
  type AnnotationTask,
} from '../domain/index.js';
import { NotFoundError, type Clock, type Stores } from '../ports/index.js';
import { agreementSummary, consensusByItem, type AgreementSummary, type MeasurementLevel } from '../statistics/index.js';

export const CreateAnnotationTaskSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only')
      .optional(),
    name: z.string().min(1),
    instructions: z.string().optional(),
    source: AnnotationSourceSchema,
    label_schema: AnnotationLabelSchemaSchema,
    annotators_per_item: z.number().int().min(1).max(20).default(3),
  })
  .strict();
export type CreateAnnotationTask = z.infer<typeof CreateAnnotationTaskSchema>;

/** A bad label or a request the task cannot take (the API answers 400 naming the field). */
export class AnnotationInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'AnnotationInputError';
  }
}

/** The items of a source: a suite's cases (static list or filter), or the cases a run scored. */
async function itemsOf(source: CreateAnnotationTask['source'], stores: Stores): Promise<string[]> {
  if (source.kind === 'run') {
    if (!(await stores.runs.getRun(source.run_id))) throw new NotFoundError('run', source.run_id);
    const ids: string[] = [];
    for await (const card of stores.scorecards.iterateScorecards(source.run_id)) ids.push(card.test_case_id);
    return ids.sort();
  }
  const suite = await stores.suites.get(source.suite_id);
  if (!suite) throw new NotFoundError('test suite', source.suite_id);
  if (suite.kind === 'static') return [...new Set(suite.test_case_ids)];
  const ids: string[] = [];
  for await (const id of stores.testCases.listTestCaseIds(suite.filter)) ids.push(id);
  return ids;
}

export async function createAnnotationTask(
  input: CreateAnnotationTask,
  deps: { stores: Stores; clock: Clock },
  createdBy: string,
  newId: () => string,
): Promise<AnnotationTask> {
  const items = await itemsOf(input.source, deps.stores);
  if (items.length === 0) throw new AnnotationInputError('source', 'has no items (an empty suite, or a run with no scorecards)');
  const task = AnnotationTaskSchema.parse({
    ...input,
    id: input.id ?? newId(),
    item_count: items.length,
    created_at: deps.clock.now().toISOString(),
    created_by: createdBy,
  });
  return deps.stores.annotations.createTask(task, items);
}

/** What an annotator sees for one item: the case, and for a run task the answer and the judge's view. */
export interface AnnotationItemView {
  task_id: string;
  item_id: string;
  question: string | null;
  expected_answer: string | null;
  expected_facts: string[];
  answer: string | null;
  semantic_score: number | null;
  label_schema: AnnotationTask['label_schema'];
  instructions: string | null;
}

export async function itemView(task: AnnotationTask, itemId: string, stores: Stores): Promise<AnnotationItemView> {
  const [tc] = await stores.testCases.getTestCases([itemId]);
  const card = task.source.kind === 'run' ? await stores.scorecards.getScorecard(task.source.run_id, itemId) : undefined;
  return {
    task_id: task.id,
    item_id: itemId,
    question: tc?.nl_query ?? null,
    expected_answer: tc?.expected_nl_response ?? null,
    expected_facts: tc?.expected_facts ?? [],
    answer: card?.generated_nl_response ?? null,
    semantic_score: card?.stages.semantics.score ?? null,
    label_schema: task.label_schema,
    instructions: task.instructions ?? null,
  };
}

export async function submitAnnotation(
  taskId: string,
  itemId: string,
  body: { label: string | number; comment?: string | undefined },
  annotator: string,
  deps: { stores: Stores; clock: Clock },
): Promise<Annotation> {
  const task = await deps.stores.annotations.getTask(taskId);
  if (!task) throw new NotFoundError('annotation task', taskId);
  const problem = labelProblem(task.label_schema, body.label);
  if (problem) throw new AnnotationInputError('label', problem);
  const now = deps.clock.now().toISOString();
  const annotation: Annotation = {
    task_id: taskId,
    item_id: itemId,
    annotator,
    label: body.label,
    ...(body.comment ? { comment: body.comment } : {}),
    created_at: now,
  };
  return deps.stores.annotations.submit(annotation, { now });
}

export interface AnnotationProgress {
  task_id: string;
  items: number;
  annotators_per_item: number;
  labels: number;
  labels_wanted: number;
  complete_items: number;
  per_annotator: Array<{ annotator: string; labels: number }>;
}

export function progressOf(task: AnnotationTask, annotations: readonly Annotation[]): AnnotationProgress {
  const perItem = new Map<string, number>();
  const perAnnotator = new Map<string, number>();
  for (const a of annotations) {
    perItem.set(a.item_id, (perItem.get(a.item_id) ?? 0) + 1);
    perAnnotator.set(a.annotator, (perAnnotator.get(a.annotator) ?? 0) + 1);
  }
  return {
    task_id: task.id,
    items: task.item_count,
    annotators_per_item: task.annotators_per_item,
    labels: annotations.length,
    labels_wanted: task.item_count * task.annotators_per_item,
    complete_items: [...perItem.values()].filter((n) => n >= task.annotators_per_item).length,
    per_annotator: [...perAnnotator]
      .map(([annotator, labels]) => ({ annotator, labels }))
      .sort((a, b) => a.annotator.localeCompare(b.annotator)),
  };
}

/** The measurement level a label schema implies: a 1-5 scale is ordinal, the rest nominal. */
export function levelOf(task: AnnotationTask): MeasurementLevel {
  return task.label_schema.kind === 'scale' ? 'ordinal' : 'nominal';
}

export interface AnnotationExportRow {
  item_id: string;
  labels: Array<{ annotator: string; label: string | number; comment?: string; imported?: { by: string; provenance: string } }>;
  /** the majority label (a 1-5 scale: the median); null on a tie */
  consensus: string | number | boolean | null;
  /** share of the item's labels equal to the consensus */
  support: number;
}

/** Per-item labels with their consensus, items in task order (free text has no consensus). */
export function exportRows(task: AnnotationTask, items: readonly string[], annotations: readonly Annotation[]): AnnotationExportRow[] {
  const ratings = annotations.map((a) => ({ item: a.item_id, annotator: a.annotator, label: a.label }));
  const consensus = new Map(consensusByItem(ratings, { numeric: task.label_schema.kind === 'scale' }).map((c) => [c.item, c]));
  return items.map((item) => {
    const c = task.label_schema.kind === 'free_text' ? undefined : consensus.get(item);
    return {
      item_id: item,
      labels: annotations
        .filter((a) => a.item_id === item)
        .map((a) => ({
          annotator: a.annotator,
          label: a.label,
          ...(a.comment ? { comment: a.comment } : {}),
          ...(a.imported ? { imported: a.imported } : {}),
        })),
      consensus: c?.consensus ?? null,
      support: c?.support ?? 0,
    };
  });
}

/** Agreement statistics of a task's labels (free text has none). */
export function taskAgreement(task: AnnotationTask, annotations: readonly Annotation[]): AgreementSummary | null {
  if (task.label_schema.kind === 'free_text' || annotations.length === 0) return null;
  return agreementSummary(
    annotations.map((a) => ({ item: a.item_id, annotator: a.annotator, label: a.label })),
    { level: levelOf(task) },
  );
}
