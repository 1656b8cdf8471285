/**
 * Measures a regression check at scale: `npx tsx lib/alerts/checkRunRegressions.bench.ts [cases]` (default
 * 400,000). Stores a baseline and a current run of `cases` scorecards each (the current one with a planted 6-point
 * drop in one category) on a temp SQLite file, then times checkRunRegressions: streaming both runs, pairing,
 * the tests, and recording the alerts. Prints the wall time, the alerts and the peak RSS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeLog } from '../host/changefeed/index.js';
import { openHostDatabase } from '../host/database.js';
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { sampleRun, sampleScorecard } from '../ports/contracts/fixtures.js';
import { checkRunRegressions } from './checkRunRegressions.js';

const cases = Number(process.argv[2] ?? 400_000);
const CATEGORIES = ['orders', 'products', 'inventory', 'shipping', 'refunds', 'support', 'analytics', 'abstention'];
const dir = mkdtempSync(join(tmpdir(), 'evalp-alert-bench-'));
try {
  const db = openHostDatabase(dir);
  const stores = createEmbeddedStores(db, new ChangeLog(db));
  const write = async (runId: string, regressed: boolean) => {
    for (let start = 0; start < cases; start += 1000) {
      const batch = [];
      for (let i = start; i < Math.min(cases, start + 1000); i++) {
        const category = CATEGORIES[i % CATEGORIES.length]!;
        const passed = (i * 7919) % 10 < 8 && !(regressed && category === 'refunds' && i % 50 < 3);
        batch.push({ ...sampleScorecard(runId, `case-${i}`, { passed, category }), latency_ms: 200 + ((i * 104_729) % 5_000) / 3, estimated_cost_usd: 0.0001 * (1 + (i % 7)) });
      }
      await stores.scorecards.upsertScorecards(batch);
    }
  };
  let t = Date.now();
  await stores.runs.createRun(sampleRun('base', { status: 'completed', total_cases: cases }));
  await write('base', false);
  const run = await stores.runs.createRun(sampleRun('cur', { status: 'running', total_cases: cases, baseline_run_id: 'base' }));
  await write('cur', true);
  console.log(`stored 2 x ${cases} scorecards in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const queue = { sendMessages: async () => ({ accepted: 0, duplicates: 0 }) };
  t = Date.now();
  const check = await checkRunRegressions(run, { live: false }, { stores, queue, clock: { now: () => new Date() } });
  const ms = Date.now() - t;
  console.log(`checkRunRegressions: ${(ms / 1000).toFixed(2)} s for ${check.evidence?.paired_cases} paired cases (${((ms * 1000) / cases).toFixed(1)} µs per case)`);
  for (const a of check.alerts) console.log(`  ${a.metric} ${a.severity}: ${a.message}`);
  db.close();
} finally {
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  rmSync(dir, { recursive: true, force: true });
}
