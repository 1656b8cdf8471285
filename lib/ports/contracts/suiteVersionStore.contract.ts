import { describe, expect, it } from 'vitest';
import { caseContentHash, versionContentHash, type SuiteVersion, type TestCase } from '../../domain/index.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { PublishedCase, SuiteVersionStore } from '../suiteVersionStore.js';
import { FIXED_TIME, sampleTestCase, type StoreFactory } from './fixtures.js';

function published(cases: TestCase[]): PublishedCase[] {
  return cases.map((c) => ({ test_case: c, content_hash: caseContentHash(c) }));
}

function header(suiteId: string, version: number, cases: PublishedCase[], overrides: Partial<SuiteVersion> = {}): SuiteVersion {
  return {
    suite_id: suiteId,
    version,
    author: 'alice',
    note: `v${version}`,
    created_at: FIXED_TIME,
    case_count: cases.length,
    content_hash: versionContentHash(cases.map((c) => ({ test_case_id: c.test_case.id, content_hash: c.content_hash }))),
    ...overrides,
  };
}

/** The behaviour every SuiteVersionStore adapter must have. */
export function suiteVersionStoreContract(name: string, makeStore: StoreFactory<SuiteVersionStore>): void {
  describe(`${name} (SuiteVersionStore contract)`, () => {
    it('publishes a version once, lists newest first, reads it back; the same number again is a ConflictError', async () => {
      const store = await makeStore();
      const v1 = published([sampleTestCase('c2'), sampleTestCase('c1')]);
      await store.publish(header('s', 1, v1), v1);
      const v2 = published([sampleTestCase('c1')]);
      await store.publish(header('s', 2, v2, { note: 'trimmed' }), v2);
      await store.publish(header('other', 1, v1), v1);
      expect((await store.listVersions('s')).map((v) => [v.version, v.note, v.case_count])).toEqual([
        [2, 'trimmed', 1],
        [1, 'v1', 2],
      ]);
      expect(await store.getVersion('s', 1)).toEqual(header('s', 1, v1));
      expect(await store.getVersion('s', 3)).toBeUndefined();
      expect(await store.listVersions('nobody')).toEqual([]);
      await expect(store.publish(header('s', 2, v1), v1)).rejects.toBeInstanceOf(ConflictError);
      // the refused publication changed nothing
      expect((await store.listCases('s', 2)).items.map((c) => c.test_case_id)).toEqual(['c1']);
    });

    it('keeps the case order, hashes and published bodies; pages; unknown versions are NotFound', async () => {
      const store = await makeStore();
      const cases = published(Array.from({ length: 7 }, (_, i) => sampleTestCase(`k${6 - i}`, { category: i % 2 ? 'odd' : 'even' })));
      await store.publish(header('s', 1, cases), cases);
      const page = await store.listCases('s', 1, { limit: 3, offset: 3 });
      expect(page).toMatchObject({ total: 7, has_more: true, limit: 3, offset: 3 });
      expect(page.items).toEqual(
        cases.slice(3, 6).map((c, i) => ({ test_case_id: c.test_case.id, position: 3 + i, content_hash: c.content_hash })),
      );
      const all: string[] = [];
      for await (const c of store.iterateCases('s', 1)) all.push(c.test_case_id);
      expect(all).toEqual(cases.map((c) => c.test_case.id));
      const bodies = await store.getCaseBodies('s', 1, ['k0', 'missing', 'k6']);
      expect(bodies).toEqual([cases[6]!.test_case, cases[0]!.test_case]);
      expect(bodies.map(caseContentHash)).toEqual([cases[6]!.content_hash, cases[0]!.content_hash]);
      await expect(store.listCases('s', 9)).rejects.toBeInstanceOf(NotFoundError);
      await expect(
        (async () => {
          for await (const _ of store.iterateCases('s', 9)) void _;
        })(),
      ).rejects.toBeInstanceOf(NotFoundError);
    });

    it('publishes an empty version', async () => {
      const store = await makeStore();
      await store.publish(header('s', 1, []), []);
      expect((await store.listCases('s', 1)).items).toEqual([]);
      expect((await store.getVersion('s', 1))?.case_count).toBe(0);
    });
  });
}
