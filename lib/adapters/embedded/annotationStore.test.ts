import { afterEach, describe, expect, it } from 'vitest';
import { annotationStoreContract, sampleAnnotationTask } from '../../ports/contracts/annotationStore.contract.js';
import { EmbeddedAnnotationStore } from './annotationStore.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

annotationStoreContract('EmbeddedAnnotationStore', () => new EmbeddedAnnotationStore(temps.open().db));

describe('EmbeddedAnnotationStore (embedded specifics)', () => {
  it('keeps tasks, labels and claims across a restart', async () => {
    const temp = temps.open();
    const store = new EmbeddedAnnotationStore(temp.db);
    await store.createTask(sampleAnnotationTask('t', { annotators_per_item: 1 }), ['i1', 'i2']);
    expect(await store.claimNext('t', 'a', { now: '2026-03-01T12:00:00.000Z' })).toBe('i1');
    await store.submit(
      { task_id: 't', item_id: 'i2', annotator: 'b', label: 'fail', created_at: '2026-03-01T12:00:00.000Z' },
      { now: '2026-03-01T12:00:00.000Z' },
    );
    const again = new EmbeddedAnnotationStore(temps.reopen(temp).db);
    expect(await again.claimNext('t', 'c', { now: '2026-03-01T12:01:00.000Z' })).toBeUndefined();
    expect((await again.listAnnotations('t')).map((a) => a.label)).toEqual(['fail']);
  });
});
