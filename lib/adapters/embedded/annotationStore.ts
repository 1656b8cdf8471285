import { AnnotationSchema, AnnotationTaskSchema, type Annotation, type AnnotationTask } from '../../domain/index.js';
import { type AnnotationStore, type ClaimOptions, ConflictError, DEFAULT_CLAIM_LEASE_MS, NotFoundError } from '../../ports/index.js';
import { createAnnotationTables } from './annotationTables.js';
import type { SqliteDatabase } from './sqlite.js';

const ms = (iso: string): number => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new RangeError(`now: not a date: ${iso}`);
  return t;
};

/**
 * Annotation tasks on SQLite. `claimNext` and `submit` each run in one IMMEDIATE transaction (the write lock is
 * taken before the read), so concurrent callers, also in other processes on the same file, see each other's claims
 * and labels: no annotator gets an item twice and an item never has more labels plus live claims than wanted.
 */
export class EmbeddedAnnotationStore implements AnnotationStore {
  private readonly claimTx: (taskId: string, annotator: string, now: number, lease: number, wanted: number) => string | undefined;
  private readonly submitTx: (a: Annotation, wanted: number) => void;
  private readonly db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.db = db;
    createAnnotationTables(db);
    const pick = db.prepare<[string, string, string, number, string, number, number], { item_id: string }>(
      `SELECT i.item_id FROM st_annotation_items i
       WHERE i.task_id = ?
         AND NOT EXISTS (SELECT 1 FROM st_annotation_labels l WHERE l.task_id = i.task_id AND l.item_id = i.item_id AND l.annotator = ?)
         AND NOT EXISTS (SELECT 1 FROM st_annotation_claims c WHERE c.task_id = i.task_id AND c.item_id = i.item_id AND c.annotator = ? AND c.expires_at > ?)
         AND (SELECT COUNT(*) FROM st_annotation_labels l WHERE l.task_id = i.task_id AND l.item_id = i.item_id)
           + (SELECT COUNT(*) FROM st_annotation_claims c WHERE c.task_id = i.task_id AND c.item_id = i.item_id AND c.annotator <> ? AND c.expires_at > ?) < ?
       ORDER BY i.position LIMIT 1`,
    );
    const upsertClaim = db.prepare<[string, string, string, number]>(
      `INSERT INTO st_annotation_claims (task_id, item_id, annotator, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (task_id, item_id, annotator) DO UPDATE SET expires_at = excluded.expires_at`,
    );
    this.claimTx = db.transaction((taskId: string, annotator: string, now: number, lease: number, wanted: number) => {
      const row = pick.get(taskId, annotator, annotator, now, annotator, now, wanted);
      if (!row) return undefined;
      upsertClaim.run(taskId, row.item_id, annotator, now + lease);
      return row.item_id;
    }).immediate;
    const itemExists = db.prepare<[string, string], { n: number }>(
      'SELECT COUNT(*) AS n FROM st_annotation_items WHERE task_id = ? AND item_id = ?',
    );
    const labelCount = db.prepare<[string, string], { n: number }>(
      'SELECT COUNT(*) AS n FROM st_annotation_labels WHERE task_id = ? AND item_id = ?',
    );
    const insertLabel = db.prepare<[string, string, string, string, string]>(
      'INSERT INTO st_annotation_labels (task_id, item_id, annotator, created_at, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    const dropClaim = db.prepare<[string, string, string]>(
      'DELETE FROM st_annotation_claims WHERE task_id = ? AND item_id = ? AND annotator = ?',
    );
    this.submitTx = db.transaction((a: Annotation, wanted: number) => {
      if (itemExists.get(a.task_id, a.item_id)!.n === 0) throw new NotFoundError('annotation item', `${a.task_id}/${a.item_id}`);
      if (labelCount.get(a.task_id, a.item_id)!.n >= wanted) {
        throw new ConflictError('annotation item', `${a.task_id}/${a.item_id}`, `already has its ${wanted} label(s)`);
      }
      if (insertLabel.run(a.task_id, a.item_id, a.annotator, a.created_at, JSON.stringify(a)).changes === 0) {
        throw new ConflictError('annotation item', `${a.task_id}/${a.item_id}`, `was already labelled by ${a.annotator}`);
      }
      dropClaim.run(a.task_id, a.item_id, a.annotator);
    }).immediate;
  }

  async createTask(task: AnnotationTask, itemIds: readonly string[]): Promise<AnnotationTask> {
    const valid = AnnotationTaskSchema.parse({ ...task, item_count: new Set(itemIds).size });
    const insertTask = this.db.prepare<[string, string, string]>(
      'INSERT INTO st_annotation_tasks (id, created_at, body) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
    );
    const insertItem = this.db.prepare<[string, string, number]>(
      'INSERT INTO st_annotation_items (task_id, item_id, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.db.transaction(() => {
      if (insertTask.run(valid.id, valid.created_at, JSON.stringify(valid)).changes === 0)
        throw new ConflictError('annotation task', valid.id);
      let position = 0;
      for (const id of new Set(itemIds)) insertItem.run(valid.id, id, position++);
    })();
    return valid;
  }

  async getTask(id: string): Promise<AnnotationTask | undefined> {
    const row = this.db.prepare<[string], { body: string }>('SELECT body FROM st_annotation_tasks WHERE id = ?').get(id);
    return row ? AnnotationTaskSchema.parse(JSON.parse(row.body)) : undefined;
  }

  async listTasks(): Promise<AnnotationTask[]> {
    return this.db
      .prepare<[], { body: string }>('SELECT body FROM st_annotation_tasks ORDER BY created_at DESC, id DESC')
      .all()
      .map((r) => AnnotationTaskSchema.parse(JSON.parse(r.body)));
  }

  async listItems(taskId: string): Promise<string[]> {
    await this.requireTask(taskId);
    return this.db
      .prepare<[string], { item_id: string }>('SELECT item_id FROM st_annotation_items WHERE task_id = ? ORDER BY position')
      .all(taskId)
      .map((r) => r.item_id);
  }

  async claimNext(taskId: string, annotator: string, options: ClaimOptions): Promise<string | undefined> {
    const task = await this.requireTask(taskId);
    return this.claimTx(taskId, annotator, ms(options.now), options.leaseMs ?? DEFAULT_CLAIM_LEASE_MS, task.annotators_per_item);
  }

  async submit(annotation: Annotation, _options?: ClaimOptions): Promise<Annotation> {
    const valid = AnnotationSchema.parse(annotation);
    const task = await this.requireTask(valid.task_id);
    this.submitTx(valid, task.annotators_per_item);
    return valid;
  }

  async listAnnotations(taskId: string): Promise<Annotation[]> {
    await this.requireTask(taskId);
    return this.db
      .prepare<[string], { body: string }>(
        `SELECT l.body FROM st_annotation_labels l JOIN st_annotation_items i ON i.task_id = l.task_id AND i.item_id = l.item_id
         WHERE l.task_id = ? ORDER BY i.position, l.created_at, l.annotator`,
      )
      .all(taskId)
      .map((r) => AnnotationSchema.parse(JSON.parse(r.body)));
  }

  private async requireTask(id: string): Promise<AnnotationTask> {
    const task = await this.getTask(id);
    if (!task) throw new NotFoundError('annotation task', id);
    return task;
  }
}
