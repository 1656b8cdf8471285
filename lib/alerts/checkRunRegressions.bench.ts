/**
 * Measures a regression check at scale: `npx tsx lib/alerts/checkRunRegressions.bench.ts [cases]` (default
 * 400,000). Stores a baseline and a current run of `cases` scorecards each (the current one with a planted 6-point
 * drop in one category) on a temp SQLite file and folds their outcomes into the run statistics the way the change
 * feed does (`aggregateOutcomes`, 1,000 cards a batch), then times, on the same data:
 * - the live check as the change feed makes it (both runs from the statistics' outcomes),
 * - the final check as finalizeRun makes it (baseline from its outcomes, the finished run from its scorecards),
 * - the former read of both runs' whole scorecards (`loadPairedOutcomes`) with the same tests, for reference;
 * each with pairing, the tests and (for the checks) recording the alerts, and checks that all three give the
 * same evidence. Prints the wall times, the alerts and the peak RSS.
 */
import { isDeepStrictEqual } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeLog } from '../host/changefeed/index.js';
import { openHostDatabase } from '../host/database.js';
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { sampleRun, sampleScorecard } from '../ports/contracts/fixtures.js';
import { aggregateOutcomes } from '../runs/aggregateOutcomes.js';
import { caseOutcomeOf } from '../domain/stats/index.js';
import { checkRunRegressions } from './checkRunRegressions.js';
import { evidenceFrom } from './evidenceFrom.js';
import { loadPairedOutcomes } from './pairedOutcomes.js';

const cases = Number(process.argv[2] ?? 400_000);
const CATEGORIES = ['orders', 'products', 'inventory', 'shipping', 'refunds', 'support', 'analytics', 'abstention'];
const dir = mkdtempSync(join(tmpdir(), 'evalp-alert-bench-'));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s (${((ms * 1000) / cases).toFixed(1)} µs per case)`;
try {
  const db = openHostDatabase(dir);
  const stores = createEmbeddedStores(db, new ChangeLog(db));
  const write = async (runId: string, regressed: boolean) => {
    for (let start = 0; start < cases; start += 1000) {
      const batch = [];
      for (let i = start; i < Math.min(cases, start + 1000); i++) {
        const category = CATEGORIES[i % CATEGORIES.length]!;
        const passed = (i * 7919) % 10 < 8 && !(regressed && category === 'refunds' && i % 50 < 3);
        batch.push({
          ...sampleScorecard(runId, `case-${i}`, { passed, category }),
          latency_ms: 200 + ((i * 104_729) % 5_000) / 3,
          estimated_cost_usd: 0.0001 * (1 + (i % 7)),
        });
      }
      await stores.scorecards.upsertScorecards(batch);
      await aggregateOutcomes(batch.map(caseOutcomeOf), stores); // the change feed's fold of the same batch
    }
  };
  let t = Date.now();
  await stores.runs.createRun(sampleRun('base', { status: 'completed', total_cases: cases }));
  await write('base', false);
  const run = await stores.runs.createRun(sampleRun('cur', { status: 'running', total_cases: cases, baseline_run_id: 'base' }));
  await write('cur', true);
  console.log(`stored and folded 2 x ${cases} scorecards in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const queue = { sendMessages: async () => ({ accepted: 0, duplicates: 0 }) };
  const deps = { stores, queue, clock: { now: () => new Date() } };

  let same = true;
  // two rounds in the same order: the first also pays for warming up (JIT, page cache)
  for (const round of [1, 2]) {
    t = Date.now();
    const live = await checkRunRegressions(run, { live: true, currentSource: 'statistics' }, deps);
    console.log(
      `round ${round}: live check (both runs from statistics outcomes): ${seconds(Date.now() - t)} for ${live.evidence?.paired_cases} paired cases`,
    );
    t = Date.now();
    const final = await checkRunRegressions(run, { live: false }, deps);
    console.log(`round ${round}: final check (baseline outcomes + run scorecards): ${seconds(Date.now() - t)}`);
    if (round === 1) for (const a of final.alerts) console.log(`  ${a.metric} ${a.severity}: ${a.message}`);
    t = Date.now();
    const former = evidenceFrom(await loadPairedOutcomes(stores.scorecards, 'base', 'cur'));
    console.log(`round ${round}: former read (both runs' scorecards) + tests, no alert writes: ${seconds(Date.now() - t)}`);
    same &&= isDeepStrictEqual(live.evidence, former) && isDeepStrictEqual(final.evidence, former);
  }
  console.log(`same evidence from all three: ${same}`);
  db.close();
  if (!same) process.exitCode = 1;
} finally {
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  rmSync(dir, { recursive: true, force: true });
}
