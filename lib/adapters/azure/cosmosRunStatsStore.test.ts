import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunStats } from '../../domain/index.js';
import type { Clock } from '../../ports/index.js';
import { encodeOutcome, recomputeFrom, toRunStats, type CaseOutcome } from '../../domain/stats/index.js';
import { deliveryHistoryArbitrary, makeOutcome, scorecardOf } from '../../domain/stats/outcomes.test-helpers.js';
import { runStatsDeletionContract } from '../../ports/contracts/index.js';
import { COSMOS_CONTAINERS, shardOf } from './cosmosContainers.js';
import { startCosmosEmulator, type CosmosEmulator } from './cosmosEmulator.test-helpers.js';
import { toCosmosId } from './cosmosIds.js';
import { CosmosRunStatsStore } from './cosmosRunStatsStore.js';
import { CosmosScorecardStore } from './cosmosScorecardStore.js';

let emulator: CosmosEmulator;
beforeAll(async () => {
  emulator = await startCosmosEmulator();
});
afterAll(async () => {
  await emulator.close();
});

class StepClock implements Clock {
  private t = Date.parse('2026-03-01T00:00:00.000Z');
  now(): Date {
    this.t += 1_000;
    return new Date(this.t);
  }
}

async function newStores() {
  const database = await emulator.newDatabase(['scorecards', 'runStats']);
  const scorecards = new CosmosScorecardStore(database.container(COSMOS_CONTAINERS.scorecards.id));
  const store = new CosmosRunStatsStore(database.container(COSMOS_CONTAINERS.runStats.id), scorecards, { clock: new StepClock() });
  return { scorecards, store };
}

runStatsDeletionContract('CosmosRunStatsStore', async () => {
  const { scorecards, store } = await newStores();
  return { scorecards, runStats: store };
});

const totals = (entries: Record<string, number>) => new Map(Object.entries(entries));
const recount = (runId: string, finals: readonly CaseOutcome[], total: number, stats: RunStats | undefined) =>
  toRunStats(runId, recomputeFrom(finals.filter((o) => o.run_id === runId)), total, stats?.updated_at ?? 'missing');

/** The counted outcome documents of a run, by case id. */
async function storedOutcomes(store: CosmosRunStatsStore, runId: string): Promise<Record<string, string>> {
  const { resources } = await store.container.items
    .query<{ case_id: string; outcome: string }>({
      query: "SELECT c.case_id, c.outcome FROM c WHERE c.run_id = @r AND c.shard != 'stats'",
      parameters: [{ name: '@r', value: runId }],
    })
    .fetchAll();
  return Object.fromEntries(resources.map((r) => [r.case_id, r.outcome]).sort());
}

const a1 = makeOutcome({ test_case_id: 'a' });
const b1 = makeOutcome({ test_case_id: 'b', overall_passed: false, overall_score: 0, error_code: 'missing_call', latency_ms: 900 });
const b2 = { ...a1, test_case_id: 'b', attempt_number: 2, latency_ms: 300 };
const c1 = makeOutcome({ test_case_id: 'c/1', category: 'refunds', tags: ['x', '__proto__'] });

describe('CosmosRunStatsStore.applyOutcomes', () => {
  it('folds a batch, returns the whole document, and ignores a redelivery (updated_at unchanged)', async () => {
    const { store } = await newStores();
    const [stats] = await store.applyOutcomes([a1, b1], totals({ 'run-1': 4 }));
    expect(stats).toEqual({ ...recount('run-1', [a1, b1], 4, stats), updated_at: '2026-03-01T00:00:01.000Z' });
    expect(await store.getRunStats('run-1')).toEqual(stats);
    expect(await store.applyOutcomes([{ ...b1, tags: [...b1.tags] }, a1, a1], totals({ 'run-1': 4 }))).toEqual([stats]);
    expect(await store.getRunStats('missing')).toBeUndefined();
  });

  it.each([
    { name: 'retry replaces the first attempt', batches: [[a1, b1], [b2]], finals: [a1, b2] },
    { name: 'an older attempt arriving late is ignored', batches: [[a1, b2], [b1]], finals: [a1, b2] },
    { name: 'both attempts in one batch, older first', batches: [[b1, b2, a1, b1]], finals: [a1, b2] },
    { name: 'a case id Cosmos ids refuse, and a __proto__ tag', batches: [[c1], [c1, a1]], finals: [a1, c1] },
  ])('$name', async ({ batches, finals }) => {
    const { store } = await newStores();
    let last: RunStats | undefined;
    for (const batch of batches) [last] = await store.applyOutcomes(batch, totals({ 'run-1': 2 }));
    expect(last).toEqual(recount('run-1', finals, 2, last));
    expect(await storedOutcomes(store, 'run-1')).toEqual(Object.fromEntries(finals.map((o) => [o.test_case_id, encodeOutcome(o)])));
  });

  it('keeps the stored total when a run is missing from totals, and groups by run', async () => {
    const { store } = await newStores();
    const first = await store.applyOutcomes([a1, { ...c1, run_id: 'run-2' }, b1], totals({ 'run-1': 10, 'run-2': 1 }));
    expect(first.map((s) => [s.run_id, s.completed, s.total])).toEqual([
      ['run-1', 2, 10],
      ['run-2', 1, 1],
    ]);
    const [kept] = await store.applyOutcomes([c1], new Map());
    expect([kept?.completed, kept?.total]).toEqual([3, 10]);
  });

  it('recovers from a crash between the state write and the outcome writes (the journal) without double counting', async () => {
    const { store } = await newStores();
    await store.applyOutcomes([a1, b1], totals({ 'run-1': 3 }));
    // the state as a crash right after the IfMatch replace leaves it: counted, journaled, outcome documents missing
    const item = store.container.item('stats', ['run-1', 'stats']);
    const { resource } = await item.read();
    await item.replace({
      ...resource,
      journal: [
        ['a', encodeOutcome(a1)],
        ['b', encodeOutcome(b1)],
      ],
    });
    for (const o of [a1, b1]) await store.container.item(toCosmosId(o.test_case_id), ['run-1', shardOf(o.test_case_id)]).delete();
    const [stats] = await store.applyOutcomes([a1, b1, c1], new Map());
    expect(stats).toEqual(recount('run-1', [a1, b1, c1], 3, stats));
    expect(Object.keys(await storedOutcomes(store, 'run-1'))).toEqual(['a', 'b', 'c/1']);
    expect((await item.read()).resource.journal).toEqual([]);
  });

  it('serialises concurrent batches of one run on the ETag: nothing lost, nothing doubled', async () => {
    const { store } = await newStores();
    const outcomes = Array.from({ length: 24 }, (_, i) =>
      makeOutcome({ test_case_id: `k${i}`, latency_ms: 10 * i, overall_passed: i % 3 !== 0 }),
    );
    const batches = Array.from({ length: 6 }, (_, i) => outcomes.slice(i * 4, i * 4 + 4));
    await Promise.all(batches.map((batch) => store.applyOutcomes([...batch, batch[0]!], totals({ 'run-1': 24 }))));
    const stats = await store.getRunStats('run-1');
    expect(stats).toEqual(recount('run-1', outcomes, 24, stats));
  });

  it('property: any order, batching, duplicates and retries give the recount of the final outcomes', async () => {
    const { store } = await newStores();
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        deliveryHistoryArbitrary(['r1', 'r2'], 12),
        fc.integer({ min: 1, max: 8 }),
        async ({ finals, deliveries }, batchSize) => {
          const prefix = `p${round++}-`;
          const renamed = (o: CaseOutcome) => ({ ...o, run_id: prefix + o.run_id });
          const expectedTotals = totals({ [`${prefix}r1`]: 7, [`${prefix}r2`]: 9 });
          for (let i = 0; i < deliveries.length; i += batchSize)
            await store.applyOutcomes(deliveries.slice(i, i + batchSize).map(renamed), expectedTotals);
          for (const [runId, total] of expectedTotals) {
            const stats = await store.getRunStats(runId);
            const runFinals = finals.map(renamed).filter((o) => o.run_id === runId);
            if (runFinals.length === 0) expect(stats).toBeUndefined();
            else expect(stats).toEqual(recount(runId, runFinals, total, stats));
          }
        },
      ),
      { numRuns: 8 },
    );
  });
});

describe('CosmosRunStatsStore.recomputeRunStats', () => {
  it('rebuilds the fold and the counted outcomes from the scorecards; later deliveries of the same cards change nothing', async () => {
    const { store, scorecards } = await newStores();
    await store.applyOutcomes([a1, b1, { ...c1, latency_ms: 1 }], totals({ 'run-1': 3 }));
    await scorecards.upsertScorecards([a1, b2, c1].map(scorecardOf));
    const stats = await store.recomputeRunStats('run-1', 3);
    expect(stats).toEqual(recount('run-1', [a1, b2, c1], 3, stats));
    expect(await store.getRunStats('run-1')).toEqual(stats);
    expect(await store.applyOutcomes([a1, b2, c1], new Map())).toEqual([stats]);
    const empty = await store.recomputeRunStats('empty', 0);
    expect([empty.completed, empty.total, empty.pass_rate]).toEqual([0, 0, null]);
  });
});

describe('CosmosRunStatsStore.iterateOutcomes', () => {
  const byId = (outcomes: readonly CaseOutcome[]) => [...outcomes].sort((x, y) => x.test_case_id.localeCompare(y.test_case_id));
  const collect = async (items: AsyncIterable<CaseOutcome>) => {
    const out: CaseOutcome[] = [];
    for await (const item of items) out.push(item);
    return out;
  };

  it('streams the counted outcome of each case (the last attempt), nothing for an unknown run', async () => {
    const { store } = await newStores();
    await store.applyOutcomes([a1, b1, c1, { ...c1, run_id: 'run-2' }], totals({ 'run-1': 3 }));
    await store.applyOutcomes([b2, { ...b1 }], new Map());
    expect(byId(await collect(store.iterateOutcomes('run-1')))).toEqual([a1, b2, c1]);
    expect(await collect(store.iterateOutcomes('missing'))).toEqual([]);
  });

  it('prefers the journal of a batch whose outcome documents are not written yet (a crash), and yields its new cases', async () => {
    const { store } = await newStores();
    await store.applyOutcomes([a1, b1], totals({ 'run-1': 3 }));
    const item = store.container.item('stats', ['run-1', 'stats']);
    const { resource } = await item.read();
    // counted in the state, journaled, documents not yet written: b's retry and a new case c
    await item.replace({
      ...resource,
      journal: [
        ['b', encodeOutcome(b2)],
        ['c/1', encodeOutcome(c1)],
      ],
    });
    expect(byId(await collect(store.iterateOutcomes('run-1')))).toEqual([a1, b2, c1]);
  });

  it('reads every page of a run larger than a page (1,000)', async () => {
    const { store } = await newStores();
    const outcomes = Array.from({ length: 1_050 }, (_, i) =>
      makeOutcome({ test_case_id: `k${String(i).padStart(4, '0')}`, latency_ms: i, overall_passed: i % 4 > 0 }),
    );
    for (let i = 0; i < outcomes.length; i += 1_000)
      await store.applyOutcomes(outcomes.slice(i, i + 1_000), totals({ 'run-1': outcomes.length }));
    expect(byId(await collect(store.iterateOutcomes('run-1')))).toEqual(outcomes);
  }, 30_000);
});
