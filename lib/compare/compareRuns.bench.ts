/**
 * Measures compareRuns on two large runs: `npx tsx lib/compare/compareRuns.bench.ts [cases]` (default 100,000).
 * The retail sample's recorded models A and B scored by the real pipeline, repeated with new case ids, stored in
 * real SQLite with their statistics recounted from the cards (the outcome rows the change feed keeps); then times
 * one whole-run read of each source and compareRuns from the statistics' outcomes and from the scorecards (as
 * before), and checks both give the same Comparison. Prints the wall times and the peak RSS.
 */
import { isDeepStrictEqual } from 'node:util';
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import type { Scorecard } from '../domain/index.js';
import { sampleRun } from '../ports/contracts/fixtures.js';
import { scoreSample } from '../../examples/retail/scoreSample.js';
import { compareRuns } from './compareRuns.js';
import { RETAIL_DIR } from './retail.test-helpers.js';

const cases = Number(process.argv[2] ?? 100_000);

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  const ms = performance.now() - start;
  process.stdout.write(
    `${label.padEnd(44)} ${(ms / 1000).toFixed(2).padStart(6)} s  (${((ms * 1000) / cases).toFixed(1)} µs per case of a run)\n`,
  );
  return result;
}

const drain = async (items: AsyncIterable<unknown>) => {
  let n = 0;
  for await (const _ of items) n++;
  return n;
};

const temps = new TempDatabases();
try {
  const temp = temps.open();
  const stores = createEmbeddedStores(temp.db, temp.changeLog);
  for (const [runId, model] of [
    ['bench-a', 'model-a'],
    ['bench-b', 'model-b'],
  ] as const) {
    const sample = await scoreSample(RETAIL_DIR, model);
    await stores.runs.createRun(
      sampleRun(runId, { status: 'completed', total_cases: cases, suite_id: 'retail-demo', completed_at: '2026-10-14T10:05:00.000Z' }),
    );
    for (let start = 0; start < cases; start += 5_000) {
      const batch: Scorecard[] = [];
      for (let i = start; i < Math.min(cases, start + 5_000); i += 1) {
        const card = sample[i % sample.length]!;
        batch.push({ ...card, run_id: runId, test_case_id: `${card.test_case_id}-${Math.floor(i / sample.length)}` });
      }
      await stores.scorecards.upsertScorecards(batch);
    }
    await stores.runStats.recomputeRunStats(runId, cases);
  }
  process.stdout.write(`${cases} cases per run (retail scorecards)\n`);
  await timed('read one run: iterateScorecards', () => drain(stores.scorecards.iterateScorecards('bench-b')));
  await timed('read one run: iterateOutcomes', () => drain(stores.runStats.iterateOutcomes('bench-b')));
  await timed("read one run: iterateOutcomes order 'any'", () => drain(stores.runStats.iterateOutcomes('bench-b', { order: 'any' })));
  const clock = { now: () => new Date('2026-10-14T12:00:00.000Z') };
  const fromCards = await timed('compareRuns from scorecards (before)', () =>
    compareRuns(['bench-a', 'bench-b'], { stores: { runs: stores.runs, scorecards: stores.scorecards }, clock }),
  );
  const fromStats = await timed('compareRuns from statistics outcomes', () => compareRuns(['bench-a', 'bench-b'], { stores, clock }));
  process.stdout.write(`same Comparison: ${isDeepStrictEqual(fromStats, fromCards)}\n`);
} finally {
  process.stdout.write(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB\n`);
  temps.closeAll();
}
