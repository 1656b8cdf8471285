import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunStats, Scorecard } from '../../domain/index.js';
import { openHostDatabase, type HostDatabase } from '../../host/database.js';
import { pageOf, type Clock, type ScorecardStore } from '../../ports/index.js';
import { encodeOutcome, recomputeFrom, toRunStats, type CaseOutcome } from '../../domain/stats/index.js';
import { deliveryHistoryArbitrary, makeOutcome, scorecardOf } from '../../domain/stats/outcomes.test-helpers.js';
import { EmbeddedRunStatsStore } from './runStatsStore.js';

/** In-memory ScorecardStore: keeps the highest attempt per case. */
class MemoryScorecards implements ScorecardStore {
  readonly cards = new Map<string, Scorecard>();
  /** extra cards `iterateScorecards` yields after the stored ones (to simulate a store listing a case twice) */
  extra: Scorecard[] = [];
  async upsertScorecards(cards: readonly Scorecard[]) {
    let written = 0;
    for (const card of cards) {
      const key = `${card.run_id}|${card.test_case_id}`;
      const stored = this.cards.get(key);
      if (stored && stored.attempt_number >= card.attempt_number) continue;
      this.cards.set(key, card);
      written++;
    }
    return { written, unchanged: cards.length - written };
  }
  async getScorecard(runId: string, testCaseId: string) {
    return this.cards.get(`${runId}|${testCaseId}`);
  }
  async listScorecards(runId: string) {
    const items = [...this.cards.values()].filter((c) => c.run_id === runId);
    return pageOf(items, items.length, {});
  }
  async *iterateScorecards(runId: string) {
    for (const card of [...this.cards.values(), ...this.extra]) if (card.run_id === runId) yield card;
  }
  async deleteScorecards(runId: string) {
    const keys = [...this.cards.entries()].filter(([, c]) => c.run_id === runId).map(([key]) => key);
    for (const key of keys) this.cards.delete(key);
    return keys.length;
  }
  async countScorecards(runId: string) {
    return [...this.cards.values()].filter((c) => c.run_id === runId).length;
  }
}

class StepClock implements Clock {
  private ms = Date.parse('2026-03-01T00:00:00.000Z');
  now() {
    this.ms += 1000;
    return new Date(this.ms);
  }
}

let dir: string;
let db: HostDatabase;
let scorecards: MemoryScorecards;
let store: EmbeddedRunStatsStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'run-stats-'));
  db = openHostDatabase(dir);
  scorecards = new MemoryScorecards();
  store = new EmbeddedRunStatsStore(db, scorecards, { clock: new StepClock() });
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const totals = (entries: Record<string, number>) => new Map(Object.entries(entries));
/** the expected document: a recount of `finals`, with the store's total and updated_at */
const recount = (runId: string, finals: readonly CaseOutcome[], total: number, stats: RunStats | undefined) =>
  toRunStats(runId, recomputeFrom(finals.filter((o) => o.run_id === runId)), total, stats?.updated_at ?? 'missing');
const storedOutcomes = (runId: string) =>
  db
    .prepare<[string], { outcome: string }>('SELECT outcome FROM st_run_outcomes WHERE run_id = ? ORDER BY test_case_id')
    .all(runId)
    .map((r) => r.outcome);

const a1 = makeOutcome({ test_case_id: 'a' });
const b1 = makeOutcome({ test_case_id: 'b', overall_passed: false, overall_score: 0, error_code: 'missing_call', latency_ms: 900 });
const b2 = { ...a1, test_case_id: 'b', attempt_number: 2, latency_ms: 300 };
const c1 = makeOutcome({ test_case_id: 'c', category: 'refunds', tags: ['x', 'y'] });

describe('EmbeddedRunStatsStore.applyOutcomes', () => {
  it('folds a batch and returns the run statistics (whole document)', async () => {
    const [stats] = await store.applyOutcomes([a1, b1], totals({ 'run-1': 4 }));
    expect(stats).toEqual({ ...recount('run-1', [a1, b1], 4, stats), updated_at: '2026-03-01T00:00:01.000Z' });
    expect(stats?.progress_pct).toBe(50);
    expect(await store.getRunStats('run-1')).toEqual(stats);
  });

  it('ignores redeliveries: same stats, updated_at unchanged', async () => {
    const [first] = await store.applyOutcomes([a1, b1], totals({ 'run-1': 4 }));
    const [again] = await store.applyOutcomes([{ ...b1, tags: [...b1.tags] }, a1, a1], totals({ 'run-1': 4 }));
    expect(again).toEqual(first);
  });

  it.each([
    { name: 'retry replaces the first attempt', batches: [[a1, b1], [b2]], finals: [a1, b2] },
    { name: 'an older attempt arriving late is ignored', batches: [[a1, b2], [b1]], finals: [a1, b2] },
    { name: 'both attempts in one batch, newer first', batches: [[b2, a1, b1]], finals: [a1, b2] },
    { name: 'both attempts in one batch, older first', batches: [[b1, b2, a1, b1]], finals: [a1, b2] },
  ])('$name', async ({ batches, finals }) => {
    let last: RunStats | undefined;
    for (const batch of batches) [last] = await store.applyOutcomes(batch, totals({ 'run-1': 2 }));
    expect(last).toEqual(recount('run-1', finals, 2, last));
    expect(storedOutcomes('run-1')).toEqual(finals.map(encodeOutcome));
  });

  it('groups by run, keeps the stored total when a run is missing from totals, and updates it when given', async () => {
    const other = { ...c1, run_id: 'run-2' };
    const first = await store.applyOutcomes([a1, other, b1], totals({ 'run-1': 10, 'run-2': 1 }));
    expect(first.map((s) => [s.run_id, s.completed, s.total, s.progress_pct])).toEqual([
      ['run-1', 2, 10, 20],
      ['run-2', 1, 1, 100],
    ]);
    const [kept] = await store.applyOutcomes([c1], new Map());
    expect([kept?.completed, kept?.total]).toEqual([3, 10]);
    const [resized] = await store.applyOutcomes([c1], totals({ 'run-1': 3 }));
    expect([resized?.total, resized?.progress_pct]).toEqual([3, 100]);
    expect(await store.applyOutcomes([], totals({ 'run-1': 3 }))).toEqual([]);
  });

  it('survives a restart: a new connection and store continue the same fold', async () => {
    await store.applyOutcomes([a1, b1], totals({ 'run-1': 3 }));
    db.close();
    db = openHostDatabase(dir);
    store = new EmbeddedRunStatsStore(db, scorecards);
    const [stats] = await store.applyOutcomes([b1, b2, c1], new Map());
    expect(stats).toEqual(recount('run-1', [a1, b2, c1], 3, stats));
  });

  it('stays exact when another store instance writes the same run in between (cache keyed by state text)', async () => {
    const other = new EmbeddedRunStatsStore(db, scorecards);
    await store.applyOutcomes([a1], totals({ 'run-1': 3 }));
    await other.applyOutcomes([b1], new Map());
    const [stats] = await store.applyOutcomes([c1, b2], new Map());
    expect(stats).toEqual(recount('run-1', [a1, b2, c1], 3, stats));
  });

  it('rolls back the whole batch when a write fails, and the next batch folds from the stored state', async () => {
    const [before] = await store.applyOutcomes([a1], totals({ 'run-1': 3, 'run-2': 1 }));
    const broken = { ...c1, run_id: 'run-2', test_case_id: null as unknown as string };
    await expect(store.applyOutcomes([b1, broken], new Map())).rejects.toThrow(/NOT NULL/);
    expect(await store.getRunStats('run-1')).toEqual(before);
    expect(await store.getRunStats('run-2')).toBeUndefined();
    const [after] = await store.applyOutcomes([b1], new Map());
    expect(after).toEqual(recount('run-1', [a1, b1], 3, after));
  });

  it('returns undefined for a run it never saw', async () => {
    expect(await store.getRunStats('nope')).toBeUndefined();
  });

  it('property: any order, batching, duplicates and retries give the recount of the final outcomes', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        deliveryHistoryArbitrary(['r1', 'r2'], 20),
        fc.integer({ min: 1, max: 12 }),
        async ({ finals, deliveries }, batchSize) => {
          const prefix = `p${round++}-`;
          const renamed = (o: CaseOutcome) => ({ ...o, run_id: prefix + o.run_id });
          const expectedTotals = totals({ [`${prefix}r1`]: 7, [`${prefix}r2`]: 9 });
          for (let i = 0; i < deliveries.length; i += batchSize) {
            await store.applyOutcomes(deliveries.slice(i, i + batchSize).map(renamed), expectedTotals);
          }
          for (const [runId, total] of expectedTotals) {
            const stats = await store.getRunStats(runId);
            const runFinals = finals.map(renamed).filter((o) => o.run_id === runId);
            if (runFinals.length === 0) expect(stats).toBeUndefined();
            else expect(stats).toEqual(recount(runId, runFinals, total, stats));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('EmbeddedRunStatsStore.recomputeRunStats', () => {
  it('repairs a corrupted fold from the scorecards and replaces the outcome rows', async () => {
    await scorecards.upsertScorecards([a1, b2, c1].map(scorecardOf));
    await store.applyOutcomes([a1, b1, c1], totals({ 'run-1': 3 }));
    db.prepare("UPDATE st_run_stats SET state = json_set(state, '$.completed', 99)").run();
    const stats = await store.recomputeRunStats('run-1', 3);
    expect(stats).toEqual(recount('run-1', [a1, b2, c1], 3, stats));
    expect(await store.getRunStats('run-1')).toEqual(stats);
    expect(storedOutcomes('run-1')).toEqual([a1, b2, c1].map(encodeOutcome));
    const [afterRedelivery] = await store.applyOutcomes([a1, b2, c1, b1], totals({ 'run-1': 3 }));
    expect(afterRedelivery).toEqual(stats);
    expect(db.prepare('SELECT count(*) AS n FROM temp.st_run_recount').get()).toEqual({ n: 0 });
  });

  it('keeps what the feed counted after the scorecards were read; the scorecard wins equal attempts', async () => {
    const staleSameAttempt = { ...c1, latency_ms: 1 };
    await scorecards.upsertScorecards([a1, b1, c1].map(scorecardOf));
    // the feed already counted b's retry and a case the recount does not list; c was counted with other content
    const late = makeOutcome({ test_case_id: 'd', overall_passed: false });
    await store.applyOutcomes([a1, b2, late, staleSameAttempt], totals({ 'run-1': 4 }));
    const stats = await store.recomputeRunStats('run-1', 4);
    expect(stats).toEqual(recount('run-1', [a1, b2, c1, late], 4, stats));
    expect(storedOutcomes('run-1')).toEqual([a1, b2, c1, late].map(encodeOutcome));
  });

  it('stages in chunks and folds a case the scorecards list twice once (the later attempt)', async () => {
    store = new EmbeddedRunStatsStore(db, scorecards, { recountChunkSize: 2 });
    const cases = Array.from({ length: 7 }, (_, i) => makeOutcome({ test_case_id: `k${i}`, latency_ms: 10 * i }));
    await scorecards.upsertScorecards(cases.map(scorecardOf));
    const retried = { ...(cases[0] as CaseOutcome), attempt_number: 3, overall_passed: false };
    scorecards.extra = [scorecardOf(retried), scorecardOf(cases[1] as CaseOutcome), scorecardOf({ ...c1, run_id: 'run-other' })];
    const finals = [retried, ...cases.slice(1)];
    const stats = await store.recomputeRunStats('run-1', 7);
    expect(stats).toEqual(recount('run-1', finals, 7, stats));
    expect(storedOutcomes('run-1')).toEqual(finals.map(encodeOutcome));
  });

  it('an empty run recomputes to zero counters', async () => {
    const stats = await store.recomputeRunStats('run-9', 5);
    expect([stats.completed, stats.total, stats.progress_pct, stats.pass_rate]).toEqual([0, 5, 0, null]);
    expect(await store.getRunStats('run-9')).toEqual(stats);
  });
});
