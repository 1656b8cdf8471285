/**
 * Measures the reports on a large run: `npx tsx lib/reports/reports.bench.ts [cases]` (default 100,000). Two runs
 * of `cases` scorecards (the retail sample's recorded models A and B scored by the real pipeline, repeated with new
 * case ids) in a real SQLite store; times the view model (alone and with the comparison), each renderer, and
 * prints output sizes and peak RSS.
 */
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import type { Scorecard } from '../domain/index.js';
import { sampleRun } from '../ports/contracts/fixtures.js';
import { systemClock } from '../ports/index.js';
import { scoreSample } from '../../examples/retail/scoreSample.js';
import { buildRunReport } from './buildRunReport.js';
import { renderHtml } from './renderHtml.js';
import { renderJunit } from './renderJunit.js';
import { renderMarkdown } from './renderMarkdown.js';
import { RETAIL_DIR } from './testing/retailPlatform.test-helpers.js';

const cases = Number(process.argv[2] ?? 100_000);
let peakRss = 0;
const sampleRss = (): void => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};
const timer = setInterval(sampleRss, 50);

async function timed<T>(label: string, fn: () => Promise<T> | T, size?: (t: T) => number): Promise<T> {
  const start = performance.now();
  const result = await fn();
  const ms = performance.now() - start;
  process.stdout.write(`${label.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms${size ? `  ${(size(result) / 1024).toFixed(0)} KiB` : ''}\n`);
  return result;
}

const temps = new TempDatabases();
try {
  const temp = temps.open();
  const s = createEmbeddedStores(temp.db, temp.changeLog);
  for (const [runId, model] of [
    ['bench-a', 'model-a'],
    ['bench-b', 'model-b'],
  ] as const) {
    const sample = await scoreSample(RETAIL_DIR, model);
    await s.runs.createRun(
      sampleRun(runId, { status: 'completed', total_cases: cases, suite_id: 'retail-demo', completed_at: '2026-10-14T10:05:00.000Z' }),
    );
    for (let start = 0; start < cases; start += 5_000) {
      const batch: Scorecard[] = [];
      for (let i = start; i < Math.min(cases, start + 5_000); i += 1) {
        const card = sample[i % sample.length]!;
        batch.push({ ...card, run_id: runId, test_case_id: `${card.test_case_id}-${Math.floor(i / sample.length)}` });
      }
      await s.scorecards.upsertScorecards(batch);
    }
    await s.runStats.recomputeRunStats(runId, cases);
  }
  sampleRss();
  process.stdout.write(`${cases} cases per run, RSS after loading ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB\n`);
  const deps = { stores: s, clock: systemClock };
  await timed('buildRunReport', () => buildRunReport('bench-b', deps));
  const compared = await timed('buildRunReport --compare', () => buildRunReport('bench-b', deps, { compareWith: 'bench-a' }));
  await timed(
    'renderMarkdown (compared)',
    () => renderMarkdown(compared),
    (t) => t.length,
  );
  await timed(
    'renderHtml (compared)',
    () => renderHtml(compared),
    (t) => t.length,
  );
  await timed(
    'renderJunit',
    () => renderJunit('bench-b', deps),
    (parts) => parts.reduce((n, p) => n + p.length, 0),
  );
  sampleRss();
  process.stdout.write(`peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB\n`);
} finally {
  clearInterval(timer);
  temps.closeAll();
}
