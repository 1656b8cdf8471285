import { describe, expect, it } from 'vitest';
import type { Scorecard } from '../../domain/index.js';
import type { ScorecardFilter, ScorecardStore } from '../scorecardStore.js';
import { collect, sampleScorecard, type StoreFactory } from './fixtures.js';

const CARDS = [
  sampleScorecard('run-1', 'a', { tags: ['smoke', 'weather'], category: 'weather' }),
  sampleScorecard('run-1', 'b', {
    passed: false,
    failing_stage: 'logic',
    error_code: 'argument_mismatch',
    tags: ['weather'],
    category: 'weather',
  }),
  sampleScorecard('run-1', 'c', {
    passed: false,
    failing_stage: 'logic',
    error_code: 'missing_call',
    tags: ['travel'],
    category: 'travel',
  }),
  sampleScorecard('run-1', 'd', { passed: false, failing_stage: 'syntax', error_code: 'unparseable_output', tags: [], category: null }),
  sampleScorecard('run-1', 'e', {
    passed: false,
    failing_stage: 'execution',
    error_code: 'data_mismatch',
    tags: ['smoke'],
    category: 'travel',
  }),
  sampleScorecard('run-2', 'a', { passed: false, tags: ['smoke'], category: 'weather' }),
];

const FILTERS: Array<[string, ScorecardFilter, string[]]> = [
  ['none', {}, ['a', 'b', 'c', 'd', 'e']],
  ['passed', { passed: true }, ['a']],
  ['failed', { passed: false }, ['b', 'c', 'd', 'e']],
  ['failing stage', { failing_stage: 'logic' }, ['b', 'c']],
  ['error code', { error_code: 'data_mismatch' }, ['e']],
  ['tag', { tag: 'smoke' }, ['a', 'e']],
  ['category', { category: 'travel' }, ['c', 'e']],
  ['failed + tag', { passed: false, tag: 'weather' }, ['b']],
  ['stage + code + category', { failing_stage: 'logic', error_code: 'missing_call', category: 'travel' }, ['c']],
  ['no match', { tag: 'nope' }, []],
];

const ids = (cards: Scorecard[]): string[] => cards.map((card) => card.test_case_id).sort();

/**
 * The ScorecardStore contract: idempotent upserts keyed (run_id, test_case_id) (the same content again, even with
 * another timestamp, worker or evaluation time, is unchanged; a lower attempt is ignored; a higher attempt, or the
 * same attempt with other content, replaces), filters and paging per run, iteration across internal pages, counts.
 */
export function scorecardStoreContract(name: string, createStore: StoreFactory<ScorecardStore>): void {
  describe(`${name}: ScorecardStore contract`, () => {
    it('writes new cards and gets them back whole; undefined when missing', async () => {
      const store = await createStore();
      expect(await store.upsertScorecards(CARDS)).toEqual({ written: 6, unchanged: 0 });
      expect(await store.getScorecard('run-1', 'b')).toEqual(CARDS[1]);
      expect(await store.getScorecard('run-2', 'a')).toEqual(CARDS[5]);
      expect(await store.getScorecard('run-1', 'missing')).toBeUndefined();
      expect(await store.upsertScorecards([])).toEqual({ written: 0, unchanged: 0 });
    });

    it('keys cards by (run, case, trial): each trial is its own card, trial 1 is the card under the case id, a redelivered trial is unchanged', async () => {
      const store = await createStore();
      const trial1 = sampleScorecard('run-t', 'a');
      const trial2 = { ...sampleScorecard('run-t', 'a', { passed: false }), trial: 2 };
      const trial3 = { ...sampleScorecard('run-t', 'a'), trial: 3 };
      expect(await store.upsertScorecards([trial1, trial2, trial3])).toEqual({ written: 3, unchanged: 0 });
      expect(await store.upsertScorecards([trial2])).toEqual({ written: 0, unchanged: 1 });
      expect(await store.getScorecard('run-t', 'a')).toEqual(trial1);
      const all = await collect(store.iterateScorecards('run-t'));
      expect(all.map((c) => [c.test_case_id, c.trial ?? 1, c.overall_passed]).sort()).toEqual([
        ['a', 1, true],
        ['a', 2, false],
        ['a', 3, true],
      ]);
      expect(await store.countScorecards('run-t', { passed: false })).toBe(1);
    });

    it.each<[string, Partial<Scorecard>]>([
      ['the same card', {}],
      [
        'another timestamp, worker and evaluation time',
        { timestamp: '2026-03-02T00:00:00.000Z', worker_id: 'worker-9', evaluation_ms: 42 },
      ],
    ])('leaves %s unchanged (redelivery)', async (_label, change) => {
      const store = await createStore();
      await store.upsertScorecards([CARDS[0]!]);
      expect(await store.upsertScorecards([{ ...CARDS[0]!, ...change }])).toEqual({ written: 0, unchanged: 1 });
      expect(await store.getScorecard('run-1', 'a')).toEqual(CARDS[0]);
    });

    it.each<[string, number, number, boolean]>([
      ['ignores a lower attempt', 2, 1, false],
      ['replaces with a higher attempt', 1, 2, true],
      ['replaces with the same attempt and other content (the later evaluation wins)', 1, 1, true],
    ])('%s', async (_label, storedAttempt, nextAttempt, replaces) => {
      const store = await createStore();
      const stored = sampleScorecard('run-1', 'a', { attempt: storedAttempt, passed: false });
      const next = sampleScorecard('run-1', 'a', { attempt: nextAttempt, passed: true, tags: ['retried'] });
      await store.upsertScorecards([stored]);
      expect(await store.upsertScorecards([next])).toEqual(replaces ? { written: 1, unchanged: 0 } : { written: 0, unchanged: 1 });
      expect(await store.getScorecard('run-1', 'a')).toEqual(replaces ? next : stored);
      expect(ids((await store.listScorecards('run-1', { tag: 'retried' })).items)).toEqual(replaces ? ['a'] : []);
      expect(await store.countScorecards('run-1', { passed: false })).toBe(replaces ? 0 : 1);
      expect(await store.countScorecards('run-1')).toBe(1);
    });

    it('applies a batch in order, the same rules within it', async () => {
      const store = await createStore();
      const first = sampleScorecard('run-1', 'a', { attempt: 1 });
      const second = sampleScorecard('run-1', 'a', { attempt: 2, passed: false });
      expect(await store.upsertScorecards([first, second, first, { ...second, worker_id: 'w2' }])).toEqual({ written: 2, unchanged: 2 });
      expect(await store.getScorecard('run-1', 'a')).toEqual(second);
    });

    it.each(FILTERS)('lists and counts with filter: %s', async (_label, filter, expected) => {
      const store = await createStore();
      await store.upsertScorecards(CARDS);
      const page = await store.listScorecards('run-1', filter);
      expect(ids(page.items)).toEqual(expected);
      expect(page.items.every((card) => card.run_id === 'run-1')).toBe(true);
      expect({ total: page.total, has_more: page.has_more, limit: page.limit, offset: page.offset }).toEqual({
        total: expected.length,
        has_more: false,
        limit: 50,
        offset: 0,
      });
      expect(await store.countScorecards('run-1', filter)).toBe(expected.length);
    });

    it('pages with total and has_more, disjoint and covering', async () => {
      const store = await createStore();
      const cards = Array.from({ length: 7 }, (_, i) => sampleScorecard('run-1', `k${i}`, { passed: i % 2 === 0 }));
      await store.upsertScorecards(cards);
      const pages = [
        await store.listScorecards('run-1', { passed: true }, { limit: 3 }),
        await store.listScorecards('run-1', { passed: true }, { limit: 3, offset: 3 }),
      ];
      expect(pages.map((p) => ({ n: p.items.length, total: p.total, has_more: p.has_more }))).toEqual([
        { n: 3, total: 4, has_more: true },
        { n: 1, total: 4, has_more: false },
      ]);
      expect(ids(pages.flatMap((p) => p.items))).toEqual(['k0', 'k2', 'k4', 'k6']);
    });

    it('iterates every card of a run once, across internal pages, and only that run', async () => {
      const store = await createStore();
      const cards = Array.from({ length: 1_234 }, (_, i) => sampleScorecard('big', `case-${i}`, { passed: i % 4 !== 0 }));
      for (let i = 0; i < cards.length; i += 500) await store.upsertScorecards(cards.slice(i, i + 500));
      await store.upsertScorecards([sampleScorecard('other', 'case-1')]);
      const seen = await collect(store.iterateScorecards('big'));
      expect(seen).toHaveLength(1_234);
      expect(new Set(seen.map((card) => card.test_case_id)).size).toBe(1_234);
      expect(seen.find((card) => card.test_case_id === 'case-8')).toEqual(cards[8]);
      expect(await collect(store.iterateScorecards('missing'))).toEqual([]);
      expect(await store.countScorecards('big', { passed: false })).toBe(309);
    });

    it("deletes a run's cards in batches until none are left (tag filters too), other runs untouched; idempotent", async () => {
      const store = await createStore();
      await store.upsertScorecards(CARDS);
      expect(await store.deleteScorecards('run-1', { limit: 3 })).toBe(3);
      expect(await store.countScorecards('run-1')).toBe(2);
      expect(await store.deleteScorecards('run-1', { limit: 3 })).toBe(2);
      expect(await store.deleteScorecards('run-1')).toBe(0);
      expect(await store.countScorecards('run-1')).toBe(0);
      expect(await store.countScorecards('run-1', { tag: 'smoke' })).toBe(0);
      expect((await store.listScorecards('run-1', { tag: 'weather' })).items).toEqual([]);
      expect(await collect(store.iterateScorecards('run-1'))).toEqual([]);
      expect(await store.getScorecard('run-1', 'a')).toBeUndefined();
      expect(await store.getScorecard('run-2', 'a')).toEqual(CARDS[5]);
      expect(await store.deleteScorecards('missing')).toBe(0);
      // a card written again after deletion is a first write
      expect(await store.upsertScorecards([CARDS[0]!])).toEqual({ written: 1, unchanged: 0 });
    });
  });
}
