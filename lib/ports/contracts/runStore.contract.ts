import { describe, expect, it } from 'vitest';
import type { RunStatus } from '../../domain/index.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { RunFilter, RunStore } from '../runStore.js';
import { sampleRun, type StoreFactory } from './fixtures.js';

const RUNS = [
  sampleRun('r1', { client_id: 'acme', suite_id: 's1', target_id: 't1', status: 'completed', created_at: '2026-03-01T08:00:00.000Z' }),
  sampleRun('r2', { client_id: 'acme', suite_id: 's2', target_id: 't1', status: 'running', created_at: '2026-03-01T09:00:00+02:00' }),
  sampleRun('r3', { client_id: 'globex', suite_id: 's1', target_id: 't2', status: 'failed', created_at: '2026-03-02T09:30:00.000Z' }),
  sampleRun('r4', { client_id: null, suite_id: 's1', target_id: 't1', status: 'completed', created_at: '2026-03-03T00:00:00.000Z' }),
];

const FILTERS: Array<[string, RunFilter, string[]]> = [
  ['none (newest first)', {}, ['r4', 'r3', 'r1', 'r2']],
  ['client', { client_id: 'acme' }, ['r1', 'r2']],
  ['suite', { suite_id: 's1' }, ['r4', 'r3', 'r1']],
  ['target', { target_id: 't2' }, ['r3']],
  ['status', { status: 'completed' }, ['r4', 'r1']],
  ['created_after is inclusive (offsets compared in UTC)', { created_after: '2026-03-01T08:00:00Z' }, ['r4', 'r3', 'r1']],
  ['created_before is exclusive', { created_before: '2026-03-02T09:30:00.000Z' }, ['r1', 'r2']],
  ['window with an offset', { created_after: '2026-03-01T09:00:00+01:00', created_before: '2026-03-03T00:00:00Z' }, ['r3', 'r1']],
  ['combined', { client_id: 'acme', status: 'completed', created_after: '2026-01-01T00:00:00Z' }, ['r1']],
  ['no match', { client_id: 'initech' }, []],
];

/**
 * The RunStore contract: create conflicts, get undefined, atomic updateRun with `from` statuses (undefined when
 * the status does not allow it, NotFoundError when the run is missing, ETag changes), listRuns filters with a
 * half-open created_at window and newest-first order, and shards that replace as a whole.
 */
export function runStoreContract(name: string, createStore: StoreFactory<RunStore>): void {
  describe(`${name}: RunStore contract`, () => {
    it('creates and gets a run; refuses an existing id; undefined when missing', async () => {
      const store = await createStore();
      const created = await store.createRun(RUNS[0]!);
      expect(created).toEqual({ ...RUNS[0], _etag: expect.any(String) });
      expect(await store.getRun('r1')).toEqual(created);
      await expect(store.createRun({ ...RUNS[0]!, status: 'pending' })).rejects.toBeInstanceOf(ConflictError);
      expect(await store.getRun('missing')).toBeUndefined();
    });

    it.each<[string, readonly RunStatus[] | undefined, boolean]>([
      ['always, without from', undefined, true],
      ['when the status is in from', ['pending', 'running'], true],
      ['not when the status is outside from', ['running'], false],
      ['not with an empty from', [], false],
    ])('updates %s', async (_label, from, applies) => {
      const store = await createStore();
      const created = await store.createRun(sampleRun('r', { status: 'pending' }));
      const patch = { status: 'running' as const, started_at: '2026-03-01T12:00:05.000Z', notes: ['started'] };
      const updated = await store.updateRun('r', patch, from ? { from } : undefined);
      if (applies) {
        expect(updated).toEqual({ ...sampleRun('r', patch), _etag: expect.any(String) });
        expect(updated!._etag).not.toBe(created._etag);
        expect(await store.getRun('r')).toEqual(updated);
      } else {
        expect(updated).toBeUndefined();
        expect(await store.getRun('r')).toEqual(created);
      }
    });

    it('leaves fields set to undefined in a patch unchanged and never changes the id', async () => {
      const store = await createStore();
      await store.createRun(sampleRun('r', { status: 'running', error: 'kept' }));
      const updated = await store.updateRun('r', { status: 'completed', error: undefined, id: 'other' } as Partial<
        ReturnType<typeof sampleRun>
      >);
      expect(updated).toEqual({ ...sampleRun('r', { status: 'completed', error: 'kept' }), _etag: expect.any(String) });
      expect(await store.getRun('other')).toBeUndefined();
    });

    it('refuses to update a missing run (NotFoundError)', async () => {
      const store = await createStore();
      await expect(store.updateRun('missing', { status: 'cancelled' })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('applies concurrent transitions from the same status once', async () => {
      const store = await createStore();
      await store.createRun(sampleRun('r', { status: 'running' }));
      const results = await Promise.all([
        store.updateRun('r', { status: 'completed' }, { from: ['running'] }),
        store.updateRun('r', { status: 'cancelled' }, { from: ['running'] }),
      ]);
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
      expect((await store.getRun('r'))!.status).toBe(results.find((r) => r !== undefined)!.status);
    });

    it.each(FILTERS)('lists runs: %s', async (_label, filter, ids) => {
      const store = await createStore();
      for (const run of RUNS) await store.createRun(run);
      const page = await store.listRuns(filter);
      expect(page).toEqual({
        items: ids.map((id) => ({ ...RUNS.find((r) => r.id === id), _etag: expect.any(String) })),
        total: ids.length,
        has_more: false,
        limit: 50,
        offset: 0,
      });
    });

    it('pages runs with total and has_more', async () => {
      const store = await createStore();
      for (const run of RUNS) await store.createRun(run);
      const pages = [await store.listRuns({}, { limit: 3 }), await store.listRuns({}, { limit: 3, offset: 3 })];
      expect(pages.map((p) => ({ ids: p.items.map((r) => r.id), total: p.total, has_more: p.has_more }))).toEqual([
        { ids: ['r4', 'r3', 'r1'], total: 4, has_more: true },
        { ids: ['r2'], total: 4, has_more: false },
      ]);
    });

    it('stores shards, replaces them as a whole, keeps runs apart', async () => {
      const store = await createStore();
      await store.putShards('r1', [['a', 'b'], ['c'], []]);
      await store.putShards('r2', [['x']]);
      expect([
        await store.getShard('r1', 0),
        await store.getShard('r1', 1),
        await store.getShard('r1', 2),
        await store.getShard('r1', 3),
      ]).toEqual([['a', 'b'], ['c'], [], undefined]);
      await store.putShards('r1', [['d']]);
      expect([await store.getShard('r1', 0), await store.getShard('r1', 1), await store.getShard('r2', 0)]).toEqual([
        ['d'],
        undefined,
        ['x'],
      ]);
      await store.putShards('r1', [['d']]);
      expect(await store.getShard('r1', 0)).toEqual(['d']);
      expect(await store.getShard('missing', 0)).toBeUndefined();
    });

    it('stores a shard of 5,000 ids', async () => {
      const store = await createStore();
      const ids = Array.from({ length: 5_000 }, (_, i) => `case-${i}`);
      await store.putShards('big', [ids, ids.slice(0, 10)]);
      expect(await store.getShard('big', 0)).toEqual(ids);
    });

    it('deletes shards, and a run with its shards; idempotent, other runs untouched', async () => {
      const store = await createStore();
      await store.createRun(RUNS[0]!);
      await store.createRun(RUNS[1]!);
      await store.putShards('r1', [['a', 'b'], ['c']]);
      await store.putShards(RUNS[1]!.id, [['x']]);
      await store.deleteShards('r1');
      expect([await store.getShard('r1', 0), await store.getShard('r1', 1)]).toEqual([undefined, undefined]);
      expect(await store.getRun('r1')).toBeDefined();
      await store.putShards('r1', [['a']]);
      await store.deleteRun('r1');
      await store.deleteRun('r1');
      await store.deleteShards('missing');
      expect(await store.getRun('r1')).toBeUndefined();
      expect(await store.getShard('r1', 0)).toBeUndefined();
      expect(await store.getShard(RUNS[1]!.id, 0)).toEqual(['x']);
      expect((await store.listRuns()).items.map((r) => r.id)).toEqual([RUNS[1]!.id]);
    });
  });
}
