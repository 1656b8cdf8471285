import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleRun, sampleScorecard, sampleSuite, sampleTarget, sampleTestCase } from '../ports/contracts/fixtures.js';
import { ConflictError, type Stores } from '../ports/index.js';
import { sequentialMcNemar } from '../statistics/index.js';
import { concludeExperiment, createExperiment, experimentResultsOf } from './experiments.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());
const clock = { now: () => new Date('2026-11-26T05:00:00.000Z') };

async function setup(): Promise<Stores> {
  const { db, changeLog } = temps.open();
  const stores = createEmbeddedStores(db, changeLog);
  await stores.suites.upsert(sampleSuite('suite-1'));
  await stores.targets.upsert(sampleTarget('target-1'));
  await stores.targets.upsert(sampleTarget('target-2'));
  await stores.testCases.upsertTestCases([sampleTestCase('case-1')]);
  return stores;
}

/** a run of `passes` (one letter per case: 1 passed, 0 failed) with its statistics recounted */
async function storeRun(stores: Stores, id: string, passes: string, status: 'running' | 'completed') {
  await stores.runs.createRun(sampleRun(id, { status, total_cases: passes.length }));
  const cards = [...passes].map((p, i) => sampleScorecard(id, `c${String(i).padStart(3, '0')}`, { passed: p === '1' }));
  await stores.scorecards.upsertScorecards(cards);
  await stores.runStats.recomputeRunStats(id, cards.length);
}

describe('experiments over stored runs', () => {
  it('refuses unknown references naming the field', async () => {
    const stores = await setup();
    const body = {
      name: 'x',
      hypothesis: 'y',
      suite_id: 'suite-1',
      variants: [
        { name: 'a', control: true, target_id: 'target-1' },
        { name: 'b', target_id: 'nope' },
      ],
    };
    await expect(createExperiment(body, { stores, clock, createdBy: 't' })).rejects.toThrow(
      /variants\.1\.target_id: "nope" does not exist/,
    );
    await expect(createExperiment({ ...body, suite_id: 'gone' }, { stores, clock, createdBy: 't' })).rejects.toThrow(/suite_id/);
  });

  it('sequential: each look stores the running minimum p-value; conclude freezes the results', async () => {
    const stores = await setup();
    const created = await createExperiment(
      {
        name: 'b vs a',
        hypothesis: 'b passes more',
        suite_id: 'suite-1',
        method: 'sequential',
        variants: [
          { name: 'a', control: true, target_id: 'target-1' },
          { name: 'b', target_id: 'target-2' },
        ],
      },
      { stores, clock, createdBy: 'tester' },
    );
    // unpaired Fleiss at 5 points around 0.5: 1,565 per run
    expect(created.minimum_sample_size).toBe(1565);
    // as start leaves it: running, with one run per variant (runs stored directly here)
    const { _etag, ...draft } = (await stores.experiments.get(created.id))!;
    await stores.experiments.replace({ ...draft, status: 'running', pinned_suite_version: 1, runs: { a: 'run-a', b: 'run-b' } });
    await storeRun(stores, 'run-a', '0'.repeat(12), 'running');
    await storeRun(stores, 'run-b', '1'.repeat(12), 'running');

    const first = await experimentResultsOf(created.id, { stores, clock });
    const expected = sequentialMcNemar(0, 12).p_value;
    expect(first.comparisons[0]!.p_value).toBeCloseTo(expected, 12);
    expect(first.runs_complete).toBe(false);
    expect((await stores.experiments.get(created.id))!.sequential_p).toEqual({ b: expected });

    await concludeExperiment(created.id, { stores, clock });
    const frozen = await experimentResultsOf(created.id, { stores, clock });
    expect(frozen.status).toBe('concluded');
    expect(frozen.comparisons).toEqual(first.comparisons);
    await expect(concludeExperiment(created.id, { stores, clock })).rejects.toBeInstanceOf(ConflictError);
  });
});
