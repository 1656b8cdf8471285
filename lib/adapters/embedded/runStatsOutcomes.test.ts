import { afterEach, describe, expect, it } from 'vitest';
import { caseOutcomeOf, type CaseOutcome } from '../../domain/stats/index.js';
import { makeOutcome, scorecardOf } from '../../domain/stats/outcomes.test-helpers.js';
import { collect } from '../../ports/contracts/fixtures.js';
import type { ScorecardStore } from '../../ports/index.js';
import { OUTCOME_PAGE_SIZE } from './runOutcomeReader.js';
import { EmbeddedRunStatsStore } from './runStatsStore.js';
import { EmbeddedScorecardStore } from './scorecardStore.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

/** Real scorecard and statistics stores on one temp SQLite file (as createEmbeddedStores wires them). */
function open() {
  const { db, changeLog } = temps.open();
  const scorecards = new EmbeddedScorecardStore(db, changeLog);
  return { db, scorecards, runStats: new EmbeddedRunStatsStore(db, scorecards) };
}

/** Writes cards and folds their outcomes, as the change feed does. */
async function feed(stores: ReturnType<typeof open>, outcomes: readonly CaseOutcome[]) {
  await stores.scorecards.upsertScorecards(outcomes.map(scorecardOf));
  await stores.runStats.applyOutcomes(outcomes, new Map());
}

const outcome = (id: string, overrides: Partial<CaseOutcome> = {}) => makeOutcome({ test_case_id: id, ...overrides });

describe('EmbeddedRunStatsStore.iterateOutcomes', () => {
  it('streams the counted outcome of each case (the last attempt), in the scorecards order (key order with order: any), nothing for an unknown run', async () => {
    const stores = open();
    const z = outcome('z', { category: null, tags: [], client_version: null });
    const a1 = outcome('a', {
      overall_passed: false,
      overall_score: 0,
      failing_stage: 'logic',
      error_code: 'argument_mismatch',
      latency_ms: 900.5,
    });
    const a2 = { ...outcome('a', { estimated_cost_usd: 0.25 }), attempt_number: 2 };
    const m = outcome('m', {
      category: 'refunds',
      tags: ['x', '__proto__'],
      stages: {
        syntax: { status: 'passed' },
        logic: { status: 'failed' },
        execution: { status: 'error' },
        semantics: { status: 'skipped' },
      },
    });
    await feed(stores, [z, a1, m]);
    await feed(stores, [a2, { ...a1 }]); // a retry, then the older attempt redelivered
    await feed(stores, [outcome('other', { run_id: 'run-2' })]);
    expect(await collect(stores.runStats.iterateOutcomes('run-1'))).toEqual([z, a2, m]);
    expect(await collect(stores.runStats.iterateOutcomes('run-1', { order: 'scorecards' }))).toEqual([z, a2, m]);
    expect(await collect(stores.runStats.iterateOutcomes('run-1', { order: 'any' }))).toEqual([a2, m, z]); // key order
    expect(await collect(stores.runStats.iterateOutcomes('missing'))).toEqual([]);
  });

  it('follows iterateScorecards across pages, and yields outcomes without a card afterwards, by case id', async () => {
    const stores = open();
    const n = 2 * OUTCOME_PAGE_SIZE + 7;
    const ids = Array.from({ length: n }, (_, i) => `case-${String((i * 7919) % n).padStart(5, '0')}`);
    for (let i = 0; i < n; i += 500)
      await feed(
        stores,
        ids.slice(i, i + 500).map((id, k) => outcome(id, { overall_passed: (i + k) % 3 > 0, latency_ms: i + k })),
      );
    const cardless = [outcome('zz-fed-only'), outcome('0-fed-only')];
    await stores.runStats.applyOutcomes(cardless, new Map());
    const cards = (await collect(stores.scorecards.iterateScorecards('run-1'))).map(caseOutcomeOf);
    expect(await collect(stores.runStats.iterateOutcomes('run-1'))).toEqual([...cards, cardless[1], cardless[0]]);
  });

  it('reads in key order when the database has no scorecard table (another ScorecardStore)', async () => {
    const { db } = temps.open();
    const runStats = new EmbeddedRunStatsStore(db, {} as ScorecardStore);
    const outcomes = ['b', 'c', 'a'].map((id) => outcome(id));
    await runStats.applyOutcomes(outcomes, new Map());
    expect(await collect(runStats.iterateOutcomes('run-1'))).toEqual([outcomes[2], outcomes[0], outcomes[1]]);
  });
});
