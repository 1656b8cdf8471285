import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleRun, sampleScorecard } from '../ports/contracts/fixtures.js';
import { scoredCaseOutcomesOf } from './runCaseOutcomes.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

/** A run with case c1 (trials 1 and 2: passed, failed) and c2 (failed at attempt 1, passed at attempt 2). */
async function storedRun(withStats: boolean) {
  const { db, changeLog } = temps.open();
  const stores = createEmbeddedStores(db, changeLog);
  await stores.runs.createRun(sampleRun('run-1', { status: 'completed', total_cases: 3 }));
  await stores.scorecards.upsertScorecards([
    { ...sampleScorecard('run-1', 'c1', { passed: true }), latency_ms: 10 },
    { ...sampleScorecard('run-1', 'c1', { passed: false }), trial: 2, latency_ms: 20 },
    { ...sampleScorecard('run-1', 'c2', { passed: false }), attempt_number: 1 },
  ]);
  await stores.scorecards.upsertScorecards([{ ...sampleScorecard('run-1', 'c2', { passed: true }), attempt_number: 2 }]);
  if (withStats) await stores.runStats.recomputeRunStats('run-1', 3);
  return stores;
}

describe('scoredCaseOutcomesOf', () => {
  it.each([
    ['the run statistics', true],
    ['the scorecards (no statistics)', false],
  ])('keys and labels each outcome by its trial key, latest attempt winning, read from %s', async (_source, withStats) => {
    const stores = await storedRun(withStats);
    expect(Boolean(await stores.runStats.getRunStats('run-1'))).toBe(withStats);
    const outcomes = await scoredCaseOutcomesOf('run-1', stores);
    expect([...outcomes.keys()].sort()).toEqual(['c1', 'c1#trial-2', 'c2']);
    for (const [key, o] of outcomes) expect(o.test_case_id).toBe(key);
    expect(outcomes.get('c1')).toMatchObject({ passed: true, latency_ms: 10 });
    expect(outcomes.get('c1#trial-2')).toMatchObject({ passed: false, latency_ms: 20 });
    expect(outcomes.get('c2')!.passed).toBe(true);
  });
});
