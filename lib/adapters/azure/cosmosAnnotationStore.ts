import type { Container } from '@azure/cosmos';
import { AnnotationSchema, AnnotationTaskSchema, type Annotation, type AnnotationTask } from '../../domain/index.js';
import { type AnnotationStore, type ClaimOptions, ConflictError, DEFAULT_CLAIM_LEASE_MS, NotFoundError } from '../../ports/index.js';
import { utcIso } from '../shared/index.js';
import { queryAll } from './cosmosBulk.js';
import { cosmosStatus, readOrUndefined, toStoreError } from './cosmosErrors.js';
import { toCosmosId } from './cosmosIds.js';

/** The task document and one document per item, all in the task's partition (/task_id). */
interface TaskDocument {
  id: 'task';
  task_id: string;
  type: 'task';
  created_utc: string;
  body: AnnotationTask;
  _etag?: string;
}

interface ItemDocument {
  id: string;
  task_id: string;
  type: 'item';
  item_id: string;
  position: number;
  labels: Annotation[];
  claims: Array<{ annotator: string; expires_at: number }>;
  _etag?: string;
}

const itemDocId = (itemId: string): string => toCosmosId(`item:${itemId}`);
/** Replaces retried after an ETag conflict (another writer changed the item in between). */
const MAX_RACES = 50;

/**
 * Annotation tasks on Cosmos DB, container `annotations` (partition key /task_id): a task document and one document
 * per item holding its labels and live claims. `claimNext` and `submit` read an item and replace it with
 * `IfMatch` on its ETag; a 412 (someone else changed it first) re-reads and re-decides, so concurrent callers never
 * over-assign or repeat an item, as the SQLite adapter's transactions guarantee.
 */
export class CosmosAnnotationStore implements AnnotationStore {
  constructor(private readonly container: Container) {}

  async createTask(task: AnnotationTask, itemIds: readonly string[]): Promise<AnnotationTask> {
    const unique = [...new Set(itemIds)];
    const valid = AnnotationTaskSchema.parse({ ...task, item_count: unique.length });
    try {
      await this.container.items.create<TaskDocument>({
        id: 'task',
        task_id: valid.id,
        type: 'task',
        created_utc: utcIso(valid.created_at, 'created_at'),
        body: valid,
      });
    } catch (error) {
      throw toStoreError(error, 'annotation task', valid.id);
    }
    for (let i = 0; i < unique.length; i += 25) {
      await Promise.all(
        unique.slice(i, i + 25).map((itemId, k) =>
          this.container.items.upsert<ItemDocument>({
            id: itemDocId(itemId),
            task_id: valid.id,
            type: 'item',
            item_id: itemId,
            position: i + k,
            labels: [],
            claims: [],
          }),
        ),
      );
    }
    return valid;
  }

  async getTask(id: string): Promise<AnnotationTask | undefined> {
    const doc = await readOrUndefined(this.container.item('task', id).read<TaskDocument>());
    return doc && AnnotationTaskSchema.parse(doc.body);
  }

  async listTasks(): Promise<AnnotationTask[]> {
    // few tasks: sorted here (a two-key ORDER BY would need a composite index)
    const docs = await queryAll<TaskDocument>(this.container, { query: "SELECT * FROM c WHERE c.type = 'task'" });
    return docs
      .sort((a, b) => b.created_utc.localeCompare(a.created_utc) || b.task_id.localeCompare(a.task_id))
      .map((d) => AnnotationTaskSchema.parse(d.body));
  }

  async listItems(taskId: string): Promise<string[]> {
    await this.requireTask(taskId);
    return (await this.items(taskId)).map((d) => d.item_id);
  }

  async claimNext(taskId: string, annotator: string, options: ClaimOptions): Promise<string | undefined> {
    const task = await this.requireTask(taskId);
    const now = Date.parse(options.now);
    if (Number.isNaN(now)) throw new RangeError(`now: not a date: ${options.now}`);
    const lease = options.leaseMs ?? DEFAULT_CLAIM_LEASE_MS;
    for (let race = 0; race < MAX_RACES; race++) {
      const candidate = (await this.items(taskId)).find((d) => claimable(d, annotator, now, task.annotators_per_item));
      if (!candidate) return undefined;
      const claims = [
        ...candidate.claims.filter((c) => c.expires_at > now && c.annotator !== annotator),
        { annotator, expires_at: now + lease },
      ];
      if (await this.replaceIfUnchanged({ ...candidate, claims })) return candidate.item_id;
    }
    throw new Error(`annotation task ${taskId}: gave up claiming after ${MAX_RACES} concurrent changes`);
  }

  async submit(annotation: Annotation, _options?: ClaimOptions): Promise<Annotation> {
    const valid = AnnotationSchema.parse(annotation);
    const task = await this.requireTask(valid.task_id);
    const key = `${valid.task_id}/${valid.item_id}`;
    for (let race = 0; race < MAX_RACES; race++) {
      const doc = await readOrUndefined(this.container.item(itemDocId(valid.item_id), valid.task_id).read<ItemDocument>());
      if (!doc) throw new NotFoundError('annotation item', key);
      if (doc.labels.some((l) => l.annotator === valid.annotator))
        throw new ConflictError('annotation item', key, `was already labelled by ${valid.annotator}`);
      if (doc.labels.length >= task.annotators_per_item)
        throw new ConflictError('annotation item', key, `already has its ${task.annotators_per_item} label(s)`);
      const next = { ...doc, labels: [...doc.labels, valid], claims: doc.claims.filter((c) => c.annotator !== valid.annotator) };
      if (await this.replaceIfUnchanged(next)) return valid;
    }
    throw new Error(`annotation item ${key}: gave up after ${MAX_RACES} concurrent changes`);
  }

  async listAnnotations(taskId: string): Promise<Annotation[]> {
    await this.requireTask(taskId);
    return (await this.items(taskId)).flatMap((d) =>
      [...d.labels]
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.annotator.localeCompare(b.annotator))
        .map((l) => AnnotationSchema.parse(l)),
    );
  }

  private async items(taskId: string): Promise<ItemDocument[]> {
    return queryAll<ItemDocument>(this.container, {
      query: "SELECT * FROM c WHERE c.task_id = @task AND c.type = 'item' ORDER BY c.position",
      parameters: [{ name: '@task', value: taskId }],
    });
  }

  /** Replace with IfMatch; false when another writer changed the document first (412). */
  private async replaceIfUnchanged(doc: ItemDocument): Promise<boolean> {
    const { _etag, ...body } = doc;
    try {
      await this.container
        .item(doc.id, doc.task_id)
        .replace<ItemDocument>(body as ItemDocument, { accessCondition: { type: 'IfMatch', condition: _etag ?? '' } });
      return true;
    } catch (error) {
      if (cosmosStatus(error) === 412) return false;
      throw error;
    }
  }

  private async requireTask(id: string): Promise<AnnotationTask> {
    const task = await this.getTask(id);
    if (!task) throw new NotFoundError('annotation task', id);
    return task;
  }
}

function claimable(doc: ItemDocument, annotator: string, now: number, wanted: number): boolean {
  if (doc.labels.some((l) => l.annotator === annotator)) return false;
  const live = doc.claims.filter((c) => c.expires_at > now);
  if (live.some((c) => c.annotator === annotator)) return false;
  return doc.labels.length + live.length < wanted;
}
