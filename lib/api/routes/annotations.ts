import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  AnnotationLabelValueSchema,
  AnnotationSchema,
  AnnotationTaskSchema,
  JudgeCalibrationSchema,
  type Scorecard,
} from '../../domain/index.js';
import {
  AnnotationInputError,
  calibrateJudge,
  createAnnotationTask,
  CreateAnnotationTaskSchema,
  exportRows,
  importAnnotations,
  ImportAnnotationsSchema,
  itemView,
  progressOf,
  submitAnnotation,
  taskAgreement,
} from '../../annotations/index.js';
import { NotFoundError, type Stores } from '../../ports/index.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const IdParams = z.object({ id: z.string().min(1) });
const ItemParams = z.object({ id: z.string().min(1), item: z.string().min(1) });

async function taskOf(stores: Stores, id: string) {
  const task = await stores.annotations.getTask(id);
  if (!task) throw new NotFoundError('annotation task', id);
  return task;
}

/** AnnotationInputError -> 400 naming the field. */
async function asBadRequest<T>(work: () => Promise<T>, prefix: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AnnotationInputError)
      throw new ApiError(400, 'Bad Request', error.message, [
        { path: `${prefix}.${error.field}`, message: error.message.slice(error.field.length + 2) },
      ]);
    throw error;
  }
}

const annotatorOf = (principal: { id: string } | undefined): string => principal?.id ?? 'anonymous';

export const createAnnotationTaskRoute = defineRoute({
  name: 'annotations-create',
  method: 'POST',
  path: 'v1/annotation-tasks',
  role: 'test-admin',
  tag: 'annotations',
  summary:
    "Create an annotation task over a suite's cases or a run's scorecards, with a label schema and N annotators per item (default 3)",
  body: CreateAnnotationTaskSchema,
  responses: { 201: 'the task', 400: 'invalid task or a source with no items', 404: 'no such suite or run', 409: 'the id exists' },
  response: AnnotationTaskSchema,
  handler: async ({ services, body, principal }) => {
    const task = await asBadRequest(() => createAnnotationTask(body, services, principal?.name ?? 'unknown', randomUUID), 'body');
    return { status: 201, body: task };
  },
});

export const listAnnotationTasksRoute = defineRoute({
  name: 'annotations-list',
  method: 'GET',
  path: 'v1/annotation-tasks',
  role: 'reader',
  tag: 'annotations',
  summary: 'Annotation tasks, newest first',
  responses: { 200: 'the tasks' },
  response: z.object({ items: z.array(AnnotationTaskSchema) }),
  handler: async ({ services }) => ({ status: 200, body: { items: await services.stores.annotations.listTasks() } }),
});

export const getAnnotationTaskRoute = defineRoute({
  name: 'annotations-get',
  method: 'GET',
  path: 'v1/annotation-tasks/{id}',
  role: 'reader',
  tag: 'annotations',
  summary: 'One annotation task',
  params: IdParams,
  responses: { 200: 'the task', 404: 'no such task' },
  response: AnnotationTaskSchema,
  handler: async ({ services, params }) => ({ status: 200, body: await taskOf(services.stores, params.id) }),
});

const ItemViewSchema = z.object({
  task_id: z.string(),
  item_id: z.string(),
  question: z.string().nullable(),
  expected_answer: z.string().nullable(),
  expected_facts: z.array(z.string()),
  answer: z.string().nullable(),
  semantic_score: z.number().nullable(),
  label_schema: AnnotationTaskSchema.shape.label_schema,
  instructions: z.string().nullable(),
});

export const nextAnnotationItemRoute = defineRoute({
  name: 'annotations-next',
  method: 'GET',
  path: 'v1/annotation-tasks/{id}/next',
  role: 'annotator',
  tag: 'annotations',
  summary:
    'Claim the next item for the calling annotator (a 30-minute lease): never one they labelled or hold, never one that already has its labels or live claims; 204 when none is left',
  params: IdParams,
  responses: { 200: 'the item to label', 204: 'nothing left for this annotator', 404: 'no such task' },
  response: ItemViewSchema,
  handler: async ({ services, params, principal }) => {
    const task = await taskOf(services.stores, params.id);
    const item = await services.stores.annotations.claimNext(task.id, annotatorOf(principal), { now: services.clock.now().toISOString() });
    if (!item) return { status: 204 };
    return { status: 200, body: await itemView(task, item, services.stores), headers: { 'cache-control': 'no-store' } };
  },
});

export const submitAnnotationRoute = defineRoute({
  name: 'annotations-submit',
  method: 'PUT',
  path: 'v1/annotation-tasks/{id}/items/{item}/label',
  role: 'annotator',
  tag: 'annotations',
  summary: "Submit the calling annotator's label for an item (checked against the task's label schema)",
  params: ItemParams,
  body: z.object({ label: AnnotationLabelValueSchema, comment: z.string().max(4_000).optional() }).strict(),
  responses: {
    201: 'the stored label',
    400: 'the label does not fit the schema',
    404: 'no such task or item',
    409: 'already labelled by this annotator, or the item has all its labels',
  },
  response: AnnotationSchema,
  handler: async ({ services, params, body, principal }) => {
    const stored = await asBadRequest(() => submitAnnotation(params.id, params.item, body, annotatorOf(principal), services), 'body');
    return { status: 201, body: stored };
  },
});

export const importAnnotationsRoute = defineRoute({
  name: 'annotations-import',
  method: 'POST',
  path: 'v1/annotation-tasks/{id}/import',
  role: 'test-admin',
  tag: 'annotations',
  summary:
    "Import labels made elsewhere as the named annotators' labels (at most 5,000 per request), each stored with who imported it and the provenance given; the whole request is checked before any label is stored",
  params: IdParams,
  body: ImportAnnotationsSchema,
  responses: {
    201: 'the labels were stored',
    400: 'an unknown item, or a label that does not fit the schema (named by index)',
    404: 'no such task',
    409: 'an (item, annotator) already labelled or repeated, or an item past its N labels',
  },
  response: z.object({
    task_id: z.string(),
    imported: z.number(),
    annotators: z.array(z.object({ annotator: z.string(), labels: z.number() })),
  }),
  handler: async ({ services, params, body, principal }) => {
    const result = await asBadRequest(
      () => importAnnotations(params.id, body, principal?.name ?? annotatorOf(principal), services),
      'body',
    );
    return { status: 201, body: result };
  },
});

export const annotationProgressRoute = defineRoute({
  name: 'annotations-progress',
  method: 'GET',
  path: 'v1/annotation-tasks/{id}/progress',
  role: 'reader',
  tag: 'annotations',
  summary: 'Labels given and wanted, complete items, labels per annotator',
  params: IdParams,
  responses: { 200: 'the progress', 404: 'no such task' },
  response: z.object({
    task_id: z.string(),
    items: z.number(),
    annotators_per_item: z.number(),
    labels: z.number(),
    labels_wanted: z.number(),
    complete_items: z.number(),
    per_annotator: z.array(z.object({ annotator: z.string(), labels: z.number() })),
  }),
  handler: async ({ services, params }) => {
    const task = await taskOf(services.stores, params.id);
    return { status: 200, body: progressOf(task, await services.stores.annotations.listAnnotations(task.id)) };
  },
});

export const exportAnnotationsRoute = defineRoute({
  name: 'annotations-export',
  method: 'GET',
  path: 'v1/annotation-tasks/{id}/export',
  role: 'reader',
  tag: 'annotations',
  summary: 'Every item with its labels and consensus (majority; the median on a 1-5 scale; null on a tie)',
  params: IdParams,
  responses: { 200: 'the items', 404: 'no such task' },
  response: z.object({
    task: AnnotationTaskSchema,
    items: z.array(
      z.object({
        item_id: z.string(),
        labels: z.array(
          z.object({
            annotator: z.string(),
            label: AnnotationLabelValueSchema,
            comment: z.string().optional(),
            imported: z.object({ by: z.string(), provenance: z.string() }).optional(),
          }),
        ),
        consensus: z.union([z.string(), z.number(), z.boolean()]).nullable(),
        support: z.number(),
      }),
    ),
  }),
  handler: async ({ services, params }) => {
    const task = await taskOf(services.stores, params.id);
    const [items, annotations] = await Promise.all([
      services.stores.annotations.listItems(task.id),
      services.stores.annotations.listAnnotations(task.id),
    ]);
    return { status: 200, body: { task, items: exportRows(task, items, annotations) } };
  },
});

export const annotationAgreementRoute = defineRoute({
  name: 'annotations-agreement',
  method: 'GET',
  path: 'v1/annotation-tasks/{id}/agreement',
  role: 'reader',
  tag: 'annotations',
  summary:
    "Agreement on the task's labels: Krippendorff's alpha (ordinal for a 1-5 scale, else nominal), Fleiss' kappa, Cohen's kappa per annotator pair, each annotator against the others' majority",
  params: IdParams,
  responses: { 200: 'the statistics (null for free text or no labels)', 404: 'no such task' },
  response: z.object({ task_id: z.string(), agreement: z.unknown().nullable() }),
  handler: async ({ services, params }) => {
    const task = await taskOf(services.stores, params.id);
    return {
      status: 200,
      body: { task_id: task.id, agreement: taskAgreement(task, await services.stores.annotations.listAnnotations(task.id)) },
    };
  },
});

export const calibrateJudgeRoute = defineRoute({
  name: 'annotations-calibrate',
  method: 'POST',
  path: 'v1/annotation-tasks/{id}/calibrate',
  role: 'test-admin',
  tag: 'annotations',
  summary:
    "Calibrate the judge of the task's run against the human labels: Cohen's kappa and raw agreement (judge vs consensus), confusion table; stored as the calibration of that judge model and rubric",
  params: IdParams,
  body: z
    .object({ provenance: z.string().min(1).optional() })
    .strict()
    .optional(),
  responses: {
    200: 'the stored calibration',
    400: 'not a task over a run, a label schema other than pass_fail or scale, or no judged item',
    404: 'no such task',
  },
  response: JudgeCalibrationSchema,
  handler: async ({ services, params, body }) => {
    const task = await taskOf(services.stores, params.id);
    const annotations = await services.stores.annotations.listAnnotations(task.id);
    const cards = new Map<string, Scorecard>();
    if (task.source.kind === 'run')
      for await (const card of services.stores.scorecards.iterateScorecards(task.source.run_id)) cards.set(card.test_case_id, card);
    let calibration;
    try {
      calibration = calibrateJudge(task, annotations, cards, {
        now: services.clock.now().toISOString(),
        ...(body?.provenance ? { provenance: body.provenance } : {}),
      });
    } catch (error) {
      if (error instanceof RangeError) {
        const [field, ...rest] = error.message.split(': ');
        throw new ApiError(400, 'Bad Request', error.message, [{ path: `task.${field}`, message: rest.join(': ') }]);
      }
      throw error;
    }
    // position-swap consistency of the same model judging pairs (stored run-comparison verdicts)
    let pairs = 0;
    let consistent = 0;
    for (let offset = 0; ; offset += 1000) {
      const page = await services.stores.pairwiseVerdicts.list({ limit: 1000, offset });
      for (const v of page.items) {
        if (v.model !== calibration.judge_model) continue;
        pairs++;
        if (v.consistent) consistent++;
      }
      if (page.items.length < 1000) break;
    }
    if (pairs > 0) calibration = { ...calibration, position_swap: { pairs, consistent, rate: consistent / pairs } };
    const { _etag, ...stored } = await services.stores.calibrations.upsert(calibration);
    return { status: 200, body: stored };
  },
});

export const listCalibrationsRoute = defineRoute({
  name: 'calibrations-list',
  method: 'GET',
  path: 'v1/judge-calibrations',
  role: 'reader',
  tag: 'annotations',
  summary: 'Stored judge calibrations (one per judge model and rubric)',
  responses: { 200: 'the calibrations' },
  response: z.object({ items: z.array(JudgeCalibrationSchema) }),
  handler: async ({ services }) => {
    const page = await services.stores.calibrations.list({ limit: 1000, offset: 0 });
    return { status: 200, body: { items: page.items.map(({ _etag, ...c }) => c) } };
  },
});

/** Human annotation tasks: create, list, read, next, submit, import, progress, export, agreement, calibrate. */
export const ANNOTATION_ROUTES: readonly RouteDefinition[] = [
  createAnnotationTaskRoute,
  listAnnotationTasksRoute,
  getAnnotationTaskRoute,
  nextAnnotationItemRoute,
  submitAnnotationRoute,
  importAnnotationsRoute,
  annotationProgressRoute,
  exportAnnotationsRoute,
  annotationAgreementRoute,
  calibrateJudgeRoute,
  listCalibrationsRoute,
];
