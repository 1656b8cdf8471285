import { afterEach, describe, expect, it } from 'vitest';
import { caseOutcomeOf } from '../../domain/index.js';
import { sampleScorecard } from '../../ports/contracts/fixtures.js';
import { EmbeddedScorecardStore, ITERATE_PAGE_SIZE } from './scorecardStore.js';
import { EmbeddedRunStatsStore } from './runStatsStore.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

/** How many items a scan had read when a callback queued on the event loop before it started got to run. */
async function readBeforeOtherWork(scan: AsyncIterable<unknown>): Promise<{ read: number; atOtherWork: number | undefined }> {
  let read = 0;
  let atOtherWork: number | undefined;
  setImmediate(() => (atOtherWork = read));
  for await (const _ of scan) read++;
  return { read, atOtherWork };
}

/**
 * A long scan on the embedded host lets other work in between its pages (an API request, a queue trigger): a run's
 * export or recount over 400,000 scorecards must not hold the run's own status poll until it ends.
 */
describe('long scans yield to the host between pages', () => {
  it('scorecards and outcomes: other work runs after the first page, not after the last', async () => {
    const temp = temps.open();
    const cards = new EmbeddedScorecardStore(temp.db, temp.changeLog);
    const stats = new EmbeddedRunStatsStore(temp.db, cards);
    const total = ITERATE_PAGE_SIZE * 3 + 7;
    const batch = Array.from({ length: total }, (_, i) => sampleScorecard('run-1', `case-${String(i).padStart(5, '0')}`));
    for (let i = 0; i < total; i += 500) await cards.upsertScorecards(batch.slice(i, i + 500));
    await stats.applyOutcomes(batch.map(caseOutcomeOf), new Map([['run-1', total]]));

    const scan = await readBeforeOtherWork(cards.iterateScorecards('run-1'));
    expect(scan.read).toBe(total);
    expect(scan.atOtherWork).toBeGreaterThan(0);
    expect(scan.atOtherWork).toBeLessThan(total);
    const outcomes = await readBeforeOtherWork(stats.iterateOutcomes('run-1'));
    expect(outcomes.read).toBe(total);
    expect(outcomes.atOtherWork).toBeGreaterThan(0);
    expect(outcomes.atOtherWork).toBeLessThan(total);
  });
});
