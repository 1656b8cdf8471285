import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../domain/index.js';
import type { AuditFilter, AuditStore } from '../auditStore.js';
import { ConflictError } from '../errors.js';
import type { StoreFactory } from './fixtures.js';

/** A valid audit record; `minute` places it at 2026-03-01T12:<minute>:00Z. */
export function sampleAuditRecord(id: string, overrides: Partial<AuditRecord> = {}, minute = 0): AuditRecord {
  return {
    id,
    at: `2026-03-01T12:${String(minute).padStart(2, '0')}:00.000Z`,
    actor: { id: 'key-1', name: 'ci', kind: 'api-key' },
    method: 'POST',
    route: 'runs-create',
    action: 'create',
    entity_type: 'runs',
    entity_id: `run-${id}`,
    status: 202,
    request_id: `req-${id}`,
    ...overrides,
  };
}

/**
 * The AuditStore contract: append (a second create of an id conflicts and changes nothing), invalid records
 * refused, newest first by `at` (compared in UTC whatever the offset) then id, every filter alone and combined
 * (`since` inclusive, `until` exclusive), paging with exact totals.
 */
export function auditStoreContract(name: string, createStore: StoreFactory<AuditStore>): void {
  const ids = (records: readonly AuditRecord[]): string[] => records.map((r) => r.id);

  /** 6 records: a-f at minutes 1-6, two actors, three entities; c is written with a +02:00 offset */
  async function seeded(): Promise<AuditStore> {
    const store = await createStore();
    const alice = { id: 'key-a', name: 'alice', kind: 'api-key' as const };
    const bob = { id: 'oid-b', name: 'bob@contoso.com', kind: 'entra-id' as const };
    await store.createAuditRecord(sampleAuditRecord('a', { actor: alice, entity_type: 'runs', entity_id: 'r1' }, 1));
    await store.createAuditRecord(sampleAuditRecord('b', { actor: bob, entity_type: 'keys', entity_id: 'k1', route: 'keys-create' }, 2));
    await store.createAuditRecord(
      sampleAuditRecord('c', { actor: alice, entity_type: 'runs', entity_id: 'r2', at: '2026-03-01T14:03:00+02:00' }),
    );
    await store.createAuditRecord(
      sampleAuditRecord('d', { actor: bob, entity_type: 'runs', entity_id: 'r1', method: 'DELETE', action: 'cancel' }, 4),
    );
    await store.createAuditRecord(
      sampleAuditRecord(
        'e',
        {
          actor: { id: 'local:ops', name: 'ops', kind: 'local' },
          method: 'CLI',
          entity_type: 'keys',
          entity_id: 'k1',
          action: 'revoke',
          request_id: null,
        },
        5,
      ),
    );
    await store.createAuditRecord(sampleAuditRecord('f', { actor: alice, entity_type: null, entity_id: null }, 6));
    return store;
  }

  describe(`${name}: AuditStore contract`, () => {
    it('appends a record and lists it back whole', async () => {
      const store = await createStore();
      const record = sampleAuditRecord('one');
      expect(await store.createAuditRecord(record)).toEqual(record);
      expect(await store.listAuditRecords()).toEqual({ items: [record], total: 1, has_more: false, limit: 50, offset: 0 });
    });

    it('refuses a second record with the same id (ConflictError) and keeps the first', async () => {
      const store = await createStore();
      await store.createAuditRecord(sampleAuditRecord('one'));
      await expect(store.createAuditRecord(sampleAuditRecord('one', { action: 'other' }))).rejects.toBeInstanceOf(ConflictError);
      expect((await store.listAuditRecords()).items).toEqual([sampleAuditRecord('one')]);
    });

    it.each([
      ['a GET', { method: 'GET' }],
      ['no actor id', { actor: { id: '', name: 'x', kind: 'api-key' } }],
      ['a bad time', { at: 'yesterday' }],
      ['a body field', { body: { secret: 'x' } }],
    ])('refuses an invalid record (%s) and stores nothing', async (_label, bad) => {
      const store = await createStore();
      await expect(store.createAuditRecord({ ...sampleAuditRecord('bad'), ...bad } as unknown as AuditRecord)).rejects.toThrow();
      expect((await store.listAuditRecords()).total).toBe(0);
    });

    it('lists newest first, comparing times in UTC whatever their offset, then by id', async () => {
      const store = await seeded();
      await store.createAuditRecord(sampleAuditRecord('g', {}, 6)); // same time as f: id descending
      expect(ids((await store.listAuditRecords()).items)).toEqual(['g', 'f', 'e', 'd', 'c', 'b', 'a']);
    });

    it.each<[string, AuditFilter, string[]]>([
      ['actor by id', { actor: 'key-a' }, ['f', 'c', 'a']],
      ['actor by name', { actor: 'bob@contoso.com' }, ['d', 'b']],
      ['a local actor', { actor: 'local:ops' }, ['e']],
      ['entity type', { entity_type: 'keys' }, ['e', 'b']],
      ['entity type and id', { entity_type: 'runs', entity_id: 'r1' }, ['d', 'a']],
      ['entity id alone', { entity_id: 'k1' }, ['e', 'b']],
      ['since (inclusive)', { since: '2026-03-01T12:04:00Z' }, ['f', 'e', 'd']],
      ['until (exclusive)', { until: '2026-03-01T12:03:00Z' }, ['b', 'a']],
      ['a window in another offset', { since: '2026-03-01T13:02:00+01:00', until: '2026-03-01T07:05:00-05:00' }, ['d', 'c', 'b']],
      ['everything combined', { actor: 'alice', entity_type: 'runs', since: '2026-03-01T12:02:00Z', until: '2026-03-01T12:10:00Z' }, ['c']],
      ['no match', { actor: 'nobody' }, []],
    ])('filters by %s', async (_label, filter, expected) => {
      const store = await seeded();
      const page = await store.listAuditRecords(filter);
      expect([ids(page.items), page.total]).toEqual([expected, expected.length]);
    });

    it('pages with exact totals: disjoint pages that cover every match', async () => {
      const store = await seeded();
      const pages = [];
      for (let offset = 0; offset < 6; offset += 4) pages.push(await store.listAuditRecords({}, { limit: 4, offset }));
      expect(pages.map((p) => [ids(p.items), p.total, p.has_more, p.limit, p.offset])).toEqual([
        [['f', 'e', 'd', 'c'], 6, true, 4, 0],
        [['b', 'a'], 6, false, 4, 4],
      ]);
      const filtered = await store.listAuditRecords({ actor: 'key-a' }, { limit: 2, offset: 2 });
      expect([ids(filtered.items), filtered.total, filtered.has_more]).toEqual([['a'], 3, false]);
      const beyond = await store.listAuditRecords({}, { limit: 2, offset: 10 });
      expect([beyond.items, beyond.total, beyond.has_more]).toEqual([[], 6, false]);
    });

    it('retention deletes records before `until` in batches (with the other filters), never one at or after it', async () => {
      const store = await seeded();
      // c is at 12:03Z (written as 14:03+02:00): until 12:04Z takes a, b, c
      const until = '2026-03-01T12:04:00.000Z';
      expect(await store.deleteAuditRecords({ until, entity_type: 'keys' })).toBe(1);
      expect(await store.deleteAuditRecords({ until }, { limit: 1 })).toBe(1);
      expect(await store.deleteAuditRecords({ until })).toBe(1);
      expect(await store.deleteAuditRecords({ until })).toBe(0);
      expect(ids((await store.listAuditRecords()).items)).toEqual(['f', 'e', 'd']);
    });
  });
}
