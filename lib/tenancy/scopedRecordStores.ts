import type { Annotation, AnnotationTask, AuditRecord, SuiteVersion, SuiteVersionCase, TestCase, TestSuite } from '../domain/index.js';
import {
  NotFoundError,
  type AnnotationStore,
  type AuditFilter,
  type AuditStore,
  type ClaimOptions,
  type EntityStore,
  type Page,
  type PageOptions,
  type PublishedCase,
  type SuiteVersionStore,
} from '../ports/index.js';
import type { Ownership } from './ownership.js';
import type { ScopedRunStore } from './scopedRunStores.js';

/** The audit trail of one organization: records are stamped with it; lists show only its records. */
export class ScopedAuditStore implements AuditStore {
  constructor(
    private readonly inner: AuditStore,
    private readonly scope: Ownership,
  ) {}

  createAuditRecord(record: AuditRecord): Promise<AuditRecord> {
    return this.scope.written(this.inner.createAuditRecord(this.scope.stamp(record)));
  }

  async listAuditRecords(filter: AuditFilter = {}, options?: PageOptions): Promise<Page<AuditRecord>> {
    const page = await this.inner.listAuditRecords({ ...filter, organization: this.scope.organization }, options);
    return { ...page, items: this.scope.visibleOnly(page.items) };
  }

  deleteAuditRecords(filter: AuditFilter & { until: string }, options?: { limit?: number }): Promise<number> {
    return this.inner.deleteAuditRecords({ ...filter, organization: this.scope.organization }, options);
  }
}

/** Published versions of this organization's suites only (another organization's suite has none). */
export class ScopedSuiteVersionStore implements SuiteVersionStore {
  constructor(
    private readonly inner: SuiteVersionStore,
    private readonly suites: EntityStore<TestSuite>,
  ) {}

  async publish(version: SuiteVersion, cases: readonly PublishedCase[]): Promise<SuiteVersion> {
    await this.requireSuite(version.suite_id);
    return this.inner.publish(version, cases);
  }

  async getVersion(suiteId: string, version: number): Promise<SuiteVersion | undefined> {
    return (await this.suites.get(suiteId)) ? this.inner.getVersion(suiteId, version) : undefined;
  }

  async listVersions(suiteId: string): Promise<SuiteVersion[]> {
    return (await this.suites.get(suiteId)) ? this.inner.listVersions(suiteId) : [];
  }

  async listCases(suiteId: string, version: number, options?: PageOptions): Promise<Page<SuiteVersionCase>> {
    await this.requireSuite(suiteId, version);
    return this.inner.listCases(suiteId, version, options);
  }

  async *iterateCases(suiteId: string, version: number): AsyncIterable<SuiteVersionCase> {
    await this.requireSuite(suiteId, version);
    yield* this.inner.iterateCases(suiteId, version);
  }

  async getCaseBodies(suiteId: string, version: number, ids: readonly string[]): Promise<TestCase[]> {
    return (await this.suites.get(suiteId)) ? this.inner.getCaseBodies(suiteId, version, ids) : [];
  }

  private async requireSuite(suiteId: string, version?: number): Promise<void> {
    if (!(await this.suites.get(suiteId)))
      throw new NotFoundError('suite version', version === undefined ? suiteId : `${suiteId}@${version}`);
  }
}

/** Annotation tasks whose source (a suite or a run) is this organization's, with their items and labels. */
export class ScopedAnnotationStore implements AnnotationStore {
  constructor(
    private readonly inner: AnnotationStore,
    private readonly suites: EntityStore<TestSuite>,
    private readonly runs: ScopedRunStore,
  ) {}

  async createTask(task: AnnotationTask, itemIds: readonly string[]): Promise<AnnotationTask> {
    if (!(await this.ownsSource(task))) throw new NotFoundError(task.source.kind, sourceId(task));
    return this.inner.createTask(task, itemIds);
  }

  async getTask(id: string): Promise<AnnotationTask | undefined> {
    const task = await this.inner.getTask(id);
    return task && (await this.ownsSource(task)) ? task : undefined;
  }

  async listTasks(): Promise<AnnotationTask[]> {
    const tasks = await this.inner.listTasks();
    const owned = await Promise.all(tasks.map((t) => this.ownsSource(t)));
    return tasks.filter((_, i) => owned[i]);
  }

  async listItems(taskId: string): Promise<string[]> {
    await this.requireTask(taskId);
    return this.inner.listItems(taskId);
  }

  async claimNext(taskId: string, annotator: string, options: ClaimOptions): Promise<string | undefined> {
    await this.requireTask(taskId);
    return this.inner.claimNext(taskId, annotator, options);
  }

  async submit(annotation: Annotation, options: ClaimOptions): Promise<Annotation> {
    await this.requireTask(annotation.task_id);
    return this.inner.submit(annotation, options);
  }

  async listAnnotations(taskId: string): Promise<Annotation[]> {
    await this.requireTask(taskId);
    return this.inner.listAnnotations(taskId);
  }

  private async ownsSource(task: AnnotationTask): Promise<boolean> {
    return task.source.kind === 'suite'
      ? (await this.suites.get(task.source.suite_id)) !== undefined
      : this.runs.ownsRun(task.source.run_id);
  }

  private async requireTask(id: string): Promise<void> {
    if (!(await this.getTask(id))) throw new NotFoundError('annotation task', id);
  }
}

function sourceId(task: AnnotationTask): string {
  return task.source.kind === 'suite' ? task.source.suite_id : task.source.run_id;
}
