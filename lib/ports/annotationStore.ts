import type { Annotation, AnnotationTask } from '../domain/index.js';

/** A claim lasts this long unless the caller says otherwise: an abandoned item returns to the pool after it. */
export const DEFAULT_CLAIM_LEASE_MS = 30 * 60_000;

export interface ClaimOptions {
  /** the current time (ISO) */
  now: string;
  leaseMs?: number;
}

/**
 * Human annotation tasks, their items (test case ids, in order) and labels. `claimNext` is the concurrency-critical
 * verb: atomically, it hands `annotator` the first item (by position) that this annotator has neither labelled nor
 * holds a live claim on, and whose labels plus other annotators' live claims are fewer than
 * `annotators_per_item`, and records a claim (lease `leaseMs`); undefined when there is none. So concurrent
 * callers never get an item twice nor more claims than labels still wanted. `submit` stores a label: ConflictError
 * when this annotator already labelled the item or the item already has all its labels, and removes the
 * annotator's claim; NotFoundError for an unknown task or item. Labels are validated by the caller (the task's label schema).
 */
export interface AnnotationStore {
  /** ConflictError when the id exists */
  createTask(task: AnnotationTask, itemIds: readonly string[]): Promise<AnnotationTask>;
  getTask(id: string): Promise<AnnotationTask | undefined>;
  /** newest first */
  listTasks(): Promise<AnnotationTask[]>;
  /** the task's item ids in order; NotFoundError for an unknown task */
  listItems(taskId: string): Promise<string[]>;
  claimNext(taskId: string, annotator: string, options: ClaimOptions): Promise<string | undefined>;
  submit(annotation: Annotation, options: ClaimOptions): Promise<Annotation>;
  /** every label of the task, by item position then time */
  listAnnotations(taskId: string): Promise<Annotation[]>;
}
