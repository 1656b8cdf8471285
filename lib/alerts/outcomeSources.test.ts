import { describe, expect, it } from 'vitest';
import type { Scorecard } from '../domain/index.js';
import type { ScorecardStore, Stores } from '../ports/index.js';
import { aggregateOutcomes } from '../runs/aggregateOutcomes.js';
import { runOutcomes } from '../compare/runOutcomes.js';
import { caseOutcomeOf } from '../domain/stats/index.js';
import { checkRunRegressions } from './checkRunRegressions.js';
import { evidenceFrom } from './evidenceFrom.js';
import { liveRegressionChecks } from './liveRegressionChecks.js';
import { loadPairedOutcomes, pairOutcomes } from './pairedOutcomes.js';
import { acceptingQueue as queue, RETAIL_CLOCK as clock, storeRun, tempStores, useRetailRuns } from './retailRuns.test-helpers.js';

const { a, b, temps } = useRetailRuns();

/** The real scorecard store, counting the whole-run reads (`iterateScorecards`) made through it. */
function countingScorecards(inner: ScorecardStore): ScorecardStore & { iterated: string[] } {
  const iterated: string[] = [];
  return {
    iterated,
    upsertScorecards: (cards) => inner.upsertScorecards(cards),
    getScorecard: (runId, id) => inner.getScorecard(runId, id),
    listScorecards: (runId, filter, options) => inner.listScorecards(runId, filter, options),
    countScorecards: (runId, filter) => inner.countScorecards(runId, filter),
    deleteScorecards: (runId, options) => inner.deleteScorecards(runId, options),
    iterateScorecards: (runId) => {
      iterated.push(runId);
      return inner.iterateScorecards(runId);
    },
  };
}

function counted(): { stores: Stores; scorecards: ReturnType<typeof countingScorecards> } {
  const real = tempStores(temps);
  const scorecards = countingScorecards(real.scorecards);
  return { stores: { ...real, scorecards }, scorecards };
}

/** Re-evaluated cards (attempt 2) written without the change feed folding them: the statistics lag behind. */
const reEvaluated = (cards: readonly Scorecard[], runId: string) => cards.map((c) => ({ ...c, run_id: runId, attempt_number: 2 }));

describe('the outcome sources of a regression check', () => {
  it('pairs the statistics outcomes exactly as the scorecards: same pairs, same order, same evidence', async () => {
    const stores = tempStores(temps);
    await storeRun(stores, 'run-a', a);
    await storeRun(stores, 'run-b', b, { status: 'running' });
    const fromCards = await loadPairedOutcomes(stores.scorecards, 'run-a', 'run-b');
    const fromStats = await pairOutcomes(await runOutcomes(stores, 'run-a'), await runOutcomes(stores, 'run-b'));
    expect(fromStats).toEqual(fromCards);
    expect(evidenceFrom(fromStats)).toEqual(evidenceFrom(fromCards));
    expect(fromStats.n).toBe(327);
  });

  it('reads a run the statistics store never saw from its scorecards', async () => {
    const { stores, scorecards } = counted();
    await stores.scorecards.upsertScorecards(a.map((c) => ({ ...c, run_id: 'run-x' })));
    const outcomes: string[] = [];
    for await (const o of await runOutcomes(stores, 'run-x')) outcomes.push(o.test_case_id);
    expect([outcomes.length, scorecards.iterated]).toEqual([327, ['run-x']]);
  });

  it.each([
    // [currentSource, what the check sees, whole-run scorecard reads]
    ['statistics', 'model B as the feed folded it: alerts', [], 2],
    ['scorecards', 'the re-evaluated cards (model A): nothing', ['run-b'], 0],
    [undefined, 'the re-evaluated cards (model A): nothing', ['run-b'], 0],
  ] as const)('currentSource %s reads %s; the baseline always from its statistics', async (currentSource, _sees, iterated, alerts) => {
    const { stores, scorecards } = counted();
    await storeRun(stores, 'run-a', a);
    const run = await storeRun(stores, 'run-b', b, { status: 'running', baseline_run_id: 'run-a', created_at: '2026-03-01T13:00:00.000Z' });
    await stores.scorecards.upsertScorecards(reEvaluated(a, 'run-b'));
    scorecards.iterated.length = 0;
    const check = await checkRunRegressions(run, { live: true, ...(currentSource ? { currentSource } : {}) }, { stores, queue, clock });
    expect([check.evidence?.paired_cases, check.alerts.length, scorecards.iterated]).toEqual([327, alerts, iterated]);
  });

  it('the change feed live check reads no scorecards and decides as a scorecard read would', async () => {
    const { stores, scorecards } = counted();
    await storeRun(stores, 'run-a', a);
    await stores.runs.createRun({
      ...(await stores.runs.getRun('run-a'))!,
      id: 'run-b',
      status: 'running',
      baseline_run_id: 'run-a',
      created_at: '2026-03-01T13:00:00.000Z',
    });
    const cards = b.slice(0, 250).map((c) => ({ ...c, run_id: 'run-b' }));
    await stores.scorecards.upsertScorecards(cards);
    scorecards.iterated.length = 0;
    const folded = await aggregateOutcomes(cards.map(caseOutcomeOf), stores);
    const live = await liveRegressionChecks(folded.stats, { stores, queue, clock });
    expect(scorecards.iterated).toEqual([]);
    const expected = evidenceFrom(await loadPairedOutcomes(stores.scorecards, 'run-a', 'run-b'));
    expect(live.checks.map((c) => c.evidence)).toEqual([expected]);
    expect(live.checks[0]!.alerts.map((x) => [x.metric, x.severity, x.paired_cases])).toEqual([
      ['accuracy', 'high', 250],
      ['cost_per_case', 'high', 250],
    ]);
  });
});
