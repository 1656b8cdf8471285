import { describe, expect, it } from 'vitest';
import type { EntityStore } from '../entityStore.js';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../errors.js';
import type { PageOptions } from '../paging.js';
import type { StoreFactory } from './fixtures.js';

export interface EntityStoreContractOptions<T extends { id: string }> {
  /** a fresh, empty store per test */
  createStore: StoreFactory<EntityStore<T>>;
  /** a valid entity for this key, its id derived from the key (a catalog's is `<key>@1`), the same for the same key */
  sample: (key: string) => T;
  /** the entity with a visible change (same id) */
  modify: (entity: T) => T;
  /** an entity the store must refuse (fails the kind's schema) */
  invalid: unknown;
  /** kinds that can be owned (suites, targets): the entity owned by another resource (`owner` set) */
  owned?: (entity: T) => T;
}

/**
 * The EntityStore contract: create fails if present, upsert creates or replaces, get is undefined when missing,
 * replace checks the ETag when given, delete is idempotent, list pages by id with total and has_more, a `_etag`
 * passed back from a read is not stored, invalid entities are refused.
 */
export function entityStoreContract<T extends { id: string }>(name: string, options: EntityStoreContractOptions<T>): void {
  const { createStore, sample, modify } = options;
  const id = (key: string): string => sample(key).id;

  describe(`${name}: EntityStore contract`, () => {
    it("lists one organization's entities when asked (exact total); a missing field counts as default", async () => {
      const store = await createStore();
      await store.create(sample('a'));
      await store.create({ ...sample('b'), organization: 'acme' });
      await store.create({ ...sample('c'), organization: 'default' });
      const ids = async (organization: string) => {
        const page = await store.list({ organization });
        return [page.total, page.items.map((e) => e.id)];
      };
      expect(await ids('acme')).toEqual([1, [id('b')]]);
      expect(await ids('default')).toEqual([2, [id('a'), id('c')]]);
      expect(await ids('nobody')).toEqual([0, []]);
      expect((await store.list()).total).toBe(3);
    });

    it('creates, then gets the entity with an ETag', async () => {
      const store = await createStore();
      const created = await store.create(sample('a'));
      expect(created).toEqual({ ...sample('a'), _etag: expect.any(String) });
      expect(await store.get(id('a'))).toEqual(created);
    });

    it('refuses to create an id that exists (ConflictError)', async () => {
      const store = await createStore();
      await store.create(sample('a'));
      await expect(store.create(modify(sample('a')))).rejects.toBeInstanceOf(ConflictError);
      expect(await store.get(id('a'))).toEqual({ ...sample('a'), _etag: expect.any(String) });
    });

    it('gets undefined for a missing id', async () => {
      const store = await createStore();
      expect(await store.get(id('missing'))).toBeUndefined();
    });

    it('upserts: creates, then replaces with a new ETag', async () => {
      const store = await createStore();
      const first = await store.upsert(sample('a'));
      const second = await store.upsert(modify(sample('a')));
      expect(second).toEqual({ ...modify(sample('a')), _etag: expect.any(String) });
      expect(second._etag).not.toBe(first._etag);
      expect(await store.get(id('a'))).toEqual(second);
    });

    it.each([
      ['without ifMatch', () => undefined],
      ['with the current ETag', (etag: string) => etag],
    ])('replaces %s', async (_label, ifMatch) => {
      const store = await createStore();
      const created = await store.create(sample('a'));
      const replaced = await store.replace(modify(sample('a')), { ifMatch: ifMatch(created._etag) });
      expect(replaced).toEqual({ ...modify(sample('a')), _etag: expect.any(String) });
      expect(replaced._etag).not.toBe(created._etag);
      expect(await store.get(id('a'))).toEqual(replaced);
    });

    it('refuses a replace with a stale ETag (PreconditionFailedError) and keeps the stored entity', async () => {
      const store = await createStore();
      const created = await store.create(sample('a'));
      await store.upsert(sample('a'));
      await expect(store.replace(modify(sample('a')), { ifMatch: created._etag })).rejects.toBeInstanceOf(PreconditionFailedError);
      expect(await store.get(id('a'))).toEqual({ ...sample('a'), _etag: expect.any(String) });
    });

    it('refuses to replace a missing entity (NotFoundError)', async () => {
      const store = await createStore();
      await expect(store.replace(sample('a'))).rejects.toBeInstanceOf(NotFoundError);
      expect(await store.get(id('a'))).toBeUndefined();
    });

    it('accepts an entity read back with its _etag and does not store the _etag inside it', async () => {
      const store = await createStore();
      const read = await store.create(sample('a'));
      const replaced = await store.replace({ ...modify(read), _etag: read._etag } as T, { ifMatch: read._etag });
      expect(await store.get(id('a'))).toEqual({ ...modify(sample('a')), _etag: replaced._etag });
    });

    it('deletes idempotently', async () => {
      const store = await createStore();
      await store.create(sample('a'));
      await store.delete(id('a'));
      await store.delete(id('a'));
      await store.delete(id('never-existed'));
      expect(await store.get(id('a'))).toBeUndefined();
      expect((await store.list()).total).toBe(0);
      await store.create(sample('a'));
      expect(await store.get(id('a'))).toEqual({ ...sample('a'), _etag: expect.any(String) });
    });

    it.each<[PageOptions, string[], boolean]>([
      [{ limit: 2, offset: 0 }, ['a', 'b'], true],
      [{ limit: 2, offset: 2 }, ['c', 'd'], true],
      [{ limit: 2, offset: 4 }, ['e'], false],
      [{ limit: 2, offset: 9 }, [], false],
      [{}, ['a', 'b', 'c', 'd', 'e'], false],
    ])('lists by id with paging %j', async (page, keys, hasMore) => {
      const store = await createStore();
      for (const key of ['d', 'b', 'e', 'a', 'c']) await store.create(sample(key));
      const result = await store.list(page);
      expect(result).toEqual({
        items: keys.map((key) => ({ ...sample(key), _etag: expect.any(String) })),
        total: 5,
        has_more: hasMore,
        limit: page.limit ?? 50,
        offset: page.offset ?? 0,
      });
    });

    it('refuses an invalid entity and stores nothing', async () => {
      const store = await createStore();
      await expect(store.create(options.invalid as T)).rejects.toThrow();
      await expect(store.upsert(options.invalid as T)).rejects.toThrow();
      expect(await store.get((options.invalid as { id: string }).id)).toBeUndefined();
    });

    if (options.owned) {
      const owned = options.owned;
      it('list({ hideOwned }) leaves out owned entities with exact totals; a plain list shows every entity', async () => {
        const store = await createStore();
        for (const key of ['a', 'b', 'c', 'd']) await store.create(key === 'b' || key === 'd' ? owned(sample(key)) : sample(key));
        expect((await store.list()).total).toBe(4);
        const page = await store.list({ hideOwned: true, limit: 1 });
        expect([page.items.map((e) => e.id), page.total, page.has_more]).toEqual([[id('a')], 2, true]);
        expect((await store.list({ hideOwned: true, offset: 1 })).items.map((e) => e.id)).toEqual([id('c')]);
        // owning is reversible: a replace without the owner shows it again
        const { _etag, ...b } = (await store.get(id('b')))!;
        await store.replace({ ...b, owner: undefined } as unknown as T);
        expect((await store.list({ hideOwned: true })).total).toBe(3);
      });
    }
  });
}
