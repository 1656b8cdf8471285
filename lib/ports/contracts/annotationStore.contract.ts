import { describe, expect, it } from 'vitest';
import { AnnotationTaskSchema, type Annotation, type AnnotationTask } from '../../domain/index.js';
import type { AnnotationStore } from '../annotationStore.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { FIXED_TIME, type StoreFactory } from './fixtures.js';

export function sampleAnnotationTask(id: string, overrides: Partial<AnnotationTask> = {}): AnnotationTask {
  return AnnotationTaskSchema.parse({
    id,
    name: `task ${id}`,
    source: { kind: 'suite', suite_id: 'suite-1' },
    label_schema: { kind: 'pass_fail' },
    annotators_per_item: 2,
    item_count: 0,
    created_at: FIXED_TIME,
    created_by: 'admin',
    ...overrides,
  });
}

const label = (task: string, item: string, annotator: string, value: string | number = 'pass'): Annotation => ({
  task_id: task,
  item_id: item,
  annotator,
  label: value,
  created_at: FIXED_TIME,
});

const NOW = '2026-03-01T12:00:00.000Z';
const LATER = '2026-03-01T13:00:00.000Z';

/** The behaviour every AnnotationStore adapter must have. */
export function annotationStoreContract(name: string, makeStore: StoreFactory<AnnotationStore>): void {
  describe(`${name} (AnnotationStore contract)`, () => {
    it('creates a task with its items in order (duplicates once), refuses the same id, lists newest first', async () => {
      const store = await makeStore();
      const task = await store.createTask(sampleAnnotationTask('t1'), ['c3', 'c1', 'c3', 'c2']);
      expect(task.item_count).toBe(3);
      expect(await store.getTask('t1')).toEqual(task);
      expect(await store.listItems('t1')).toEqual(['c3', 'c1', 'c2']);
      await expect(store.createTask(sampleAnnotationTask('t1'), ['x'])).rejects.toBeInstanceOf(ConflictError);
      await store.createTask(sampleAnnotationTask('t0', { created_at: '2026-03-02T00:00:00.000Z' }), ['a']);
      expect((await store.listTasks()).map((t) => t.id)).toEqual(['t0', 't1']);
      expect(await store.getTask('missing')).toBeUndefined();
      await expect(store.listItems('missing')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('claimNext: items in order, never the same item twice to one annotator, never more than N per item', async () => {
      const store = await makeStore();
      await store.createTask(sampleAnnotationTask('t'), ['i1', 'i2']);
      expect(await store.claimNext('t', 'a', { now: NOW })).toBe('i1');
      expect(await store.claimNext('t', 'a', { now: NOW })).toBe('i2');
      expect(await store.claimNext('t', 'a', { now: NOW })).toBeUndefined();
      expect(await store.claimNext('t', 'b', { now: NOW })).toBe('i1');
      expect(await store.claimNext('t', 'b', { now: NOW })).toBe('i2');
      // both items have 2 live claims: the third annotator gets nothing
      expect(await store.claimNext('t', 'c', { now: NOW })).toBeUndefined();
      // a labelled item is never handed back to its annotator
      await store.submit(label('t', 'i1', 'a'), { now: NOW });
      expect(await store.claimNext('t', 'a', { now: LATER })).toBe('i2');
    });

    it('an expired claim returns the item to the pool', async () => {
      const store = await makeStore();
      await store.createTask(sampleAnnotationTask('t', { annotators_per_item: 1 }), ['i1']);
      expect(await store.claimNext('t', 'a', { now: NOW, leaseMs: 60_000 })).toBe('i1');
      expect(await store.claimNext('t', 'b', { now: NOW })).toBeUndefined();
      expect(await store.claimNext('t', 'b', { now: LATER })).toBe('i1');
    });

    it('submit: one label per annotator and item, at most N per item, unknown item or task is NotFound', async () => {
      const store = await makeStore();
      await store.createTask(sampleAnnotationTask('t'), ['i1']);
      await store.submit(label('t', 'i1', 'a'), { now: NOW });
      await expect(store.submit(label('t', 'i1', 'a', 'fail'), { now: NOW })).rejects.toThrow(/already labelled by a/);
      await store.submit(label('t', 'i1', 'b', 'fail'), { now: NOW });
      await expect(store.submit(label('t', 'i1', 'c'), { now: NOW })).rejects.toThrow(/already has its 2 label/);
      await expect(store.submit(label('t', 'nope', 'a'), { now: NOW })).rejects.toBeInstanceOf(NotFoundError);
      await expect(store.submit(label('missing', 'i1', 'a'), { now: NOW })).rejects.toBeInstanceOf(NotFoundError);
      expect((await store.listAnnotations('t')).map((x) => [x.annotator, x.label])).toEqual([
        ['a', 'pass'],
        ['b', 'fail'],
      ]);
      // fully covered: nobody is handed it any more
      expect(await store.claimNext('t', 'c', { now: NOW })).toBeUndefined();
    });

    it('keeps an imported label with its provenance (who imported it, where it comes from)', async () => {
      const store = await makeStore();
      await store.createTask(sampleAnnotationTask('t'), ['i1']);
      const imported = {
        ...label('t', 'i1', 'catalogue-derived'),
        comment: 'generated from a mistake catalogue',
        imported: { by: 'admin', provenance: 'labels generated from a mistake catalogue, not human raters' },
      };
      expect(await store.submit(imported, { now: NOW })).toEqual(imported);
      expect(await store.listAnnotations('t')).toEqual([imported]);
    });

    it('concurrent claims by many annotators never over-assign an item nor repeat one', async () => {
      const store = await makeStore();
      const items = Array.from({ length: 6 }, (_, i) => `i${i}`);
      await store.createTask(sampleAnnotationTask('t', { annotators_per_item: 3 }), items);
      const annotators = ['a', 'b', 'c', 'd', 'e'];
      const claims = await Promise.all(
        annotators.flatMap((who) =>
          Array.from({ length: 5 }, () => store.claimNext('t', who, { now: NOW }).then((item) => [who, item] as const)),
        ),
      );
      const given = claims.filter(([, item]) => item !== undefined) as Array<readonly [string, string]>;
      for (const who of annotators) {
        const mine = given.filter(([w]) => w === who).map(([, i]) => i);
        expect(new Set(mine).size).toBe(mine.length);
      }
      for (const item of items) expect(given.filter(([, i]) => i === item).length).toBeLessThanOrEqual(3);
      // 18 slots; greedy in-order claiming by 5 annotators holding at most 5 items each fills at least 15 of them
      expect(given.length).toBeLessThanOrEqual(18);
      expect(given.length).toBeGreaterThanOrEqual(15);
    });
  });
}
