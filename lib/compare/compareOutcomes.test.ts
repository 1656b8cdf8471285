import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import type { ScorecardStore, Stores } from '../ports/index.js';
import { compareRuns } from './compareRuns.js';
import { retailCards, storeRun, withRandomFlips } from './retail.test-helpers.js';

const temps = new TempDatabases();
const clock = { now: () => new Date('2026-10-14T12:00:00.000Z') };
let stores: Stores;
const iterated: string[] = [];

/** The real scorecard store, recording the whole-run reads (`iterateScorecards`) made through it. */
const counting = (inner: ScorecardStore): ScorecardStore => ({
  upsertScorecards: (cards) => inner.upsertScorecards(cards),
  getScorecard: (runId, id) => inner.getScorecard(runId, id),
  listScorecards: (runId, filter, options) => inner.listScorecards(runId, filter, options),
  countScorecards: (runId, filter) => inner.countScorecards(runId, filter),
  deleteScorecards: (runId, options) => inner.deleteScorecards(runId, options),
  iterateScorecards: (runId) => {
    iterated.push(runId);
    return inner.iterateScorecards(runId);
  },
});

beforeAll(async () => {
  const { db, changeLog } = temps.open();
  const real = createEmbeddedStores(db, changeLog);
  stores = { ...real, scorecards: counting(real.scorecards) };
  const [a, b] = await Promise.all([retailCards('model-a'), retailCards('model-b')]);
  const runs: Array<[string, typeof a]> = [
    ['run-a', a],
    ['run-b', b],
    ['run-a-noisy', withRandomFlips(a, 6, 11)],
    ['run-b-part', b.slice(0, 200)],
  ];
  for (const [id, cards] of runs) {
    await storeRun(stores, id, cards);
    await stores.runStats.recomputeRunStats(id, cards.length);
  }
}, 60_000);

afterAll(() => temps.closeAll());

describe('compareRuns from the statistics outcomes', () => {
  it.each([[['run-a', 'run-b']], [['run-a', 'run-a-noisy', 'run-b-part']], [['run-b-part', 'run-a']]])(
    '%j: the same Comparison as from the scorecards, with no whole-run scorecard read',
    async (ids) => {
      iterated.length = 0;
      const fromStats = await compareRuns(ids, { stores, clock });
      expect(iterated).toEqual([]);
      const fromCards = await compareRuns(ids, { stores: { runs: stores.runs, scorecards: stores.scorecards }, clock });
      expect(iterated).toEqual(ids);
      expect(fromStats).toEqual(fromCards);
      expect(fromStats.pairs.some((p) => p.flipped.newly_failing.cases.length + p.flipped.newly_passing.cases.length > 0)).toBe(true);
    },
  );
});
