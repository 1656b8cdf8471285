import { describe, expect, it } from 'vitest';
import { caseOutcomeOf } from '../../domain/index.js';
import type { RunStatsStore } from '../runStatsStore.js';
import type { ScorecardStore } from '../scorecardStore.js';
import { collect, sampleScorecard, type StoreFactory } from './fixtures.js';

/**
 * The deletion half of the RunStatsStore contract (retention and job clean-up): `deleteOutcomes` removes a run's
 * counted outcomes in batches and keeps its statistics exactly as they were; `deleteRunStats` removes both.
 */
export function runStatsDeletionContract(
  name: string,
  createStores: StoreFactory<{ scorecards: ScorecardStore; runStats: RunStatsStore }>,
): void {
  describe(`${name}: RunStatsStore deletion contract`, () => {
    async function seeded() {
      const stores = await createStores();
      const cards = Array.from({ length: 7 }, (_, i) => sampleScorecard('run-1', `c${i}`, { passed: i % 2 === 0 }));
      const other = [sampleScorecard('run-2', 'c0')];
      await stores.scorecards.upsertScorecards([...cards, ...other]);
      await stores.runStats.applyOutcomes(
        [...cards, ...other].map(caseOutcomeOf),
        new Map([
          ['run-1', 7],
          ['run-2', 1],
        ]),
      );
      return stores;
    }

    it('deleteOutcomes empties iterateOutcomes in batches and keeps the statistics unchanged; idempotent', async () => {
      const { runStats } = await seeded();
      const before = await runStats.getRunStats('run-1');
      expect(before).toMatchObject({ completed: 7, passed: 4 });
      expect(await runStats.deleteOutcomes('run-1', { limit: 5 })).toBe(5);
      expect(await runStats.deleteOutcomes('run-1', { limit: 5 })).toBe(2);
      expect(await runStats.deleteOutcomes('run-1')).toBe(0);
      expect(await collect(runStats.iterateOutcomes('run-1'))).toEqual([]);
      expect(await runStats.getRunStats('run-1')).toEqual(before);
      expect(await collect(runStats.iterateOutcomes('run-2'))).toHaveLength(1);
      expect(await runStats.deleteOutcomes('missing')).toBe(0);
    });

    it('deleteRunStats removes the statistics and the outcomes of one run only; idempotent', async () => {
      const { runStats } = await seeded();
      await runStats.deleteRunStats('run-1');
      await runStats.deleteRunStats('run-1');
      expect(await runStats.getRunStats('run-1')).toBeUndefined();
      expect(await collect(runStats.iterateOutcomes('run-1'))).toEqual([]);
      expect(await runStats.getRunStats('run-2')).toMatchObject({ completed: 1 });
    });
  });
}
