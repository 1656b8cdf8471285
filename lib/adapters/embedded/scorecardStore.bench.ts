/**
 * Scorecard write benchmark (not a test): `npx tsx lib/adapters/embedded/scorecardStore.bench.ts [cards=400000]`.
 * Upserts one run's cards (~1.3 KB each, 30% failing with a diff) in batches of 1,000 on a temp SQLite file with
 * the host's settings, each batch one transaction with its change-log appends, and reports µs per card (wall and
 * CPU); then redelivers 10,000 cards (all unchanged), reads a filtered page and iterates the run.
 * `IDS=uuid` uses random case ids (the unique key then takes random inserts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scorecard } from '../../domain/index.js';
import { ChangeLog } from '../../host/changefeed/index.js';
import { openHostDatabase } from '../../host/database.js';
import { sampleScorecard } from '../../ports/contracts/fixtures.js';
import { EmbeddedScorecardStore, SCORECARD_CONTAINER } from './scorecardStore.js';

const total = Number(process.argv[2] ?? 400_000);
const BATCH = 1_000;
const CATEGORIES = ['weather', 'travel', 'billing', 'search', 'crm', 'calendar', 'maps'];

function card(i: number, caseId: string): Scorecard {
  const passed = i % 10 >= 3;
  const base = sampleScorecard('bench-run', caseId, {
    passed,
    failing_stage: i % 3 === 0 ? 'logic' : 'execution',
    error_code: i % 3 === 0 ? 'argument_mismatch' : 'data_mismatch',
    tags: [`tag-${i % 11}`, `tag-${i % 5}`],
    category: CATEGORIES[i % CATEGORIES.length]!,
    score: passed ? 1 : (i % 7) / 10,
  });
  const args = { city: `city ${i}`, date: '2026-03-01', units: 'metric', limit: i % 50, filters: { min: 1, max: 99, tags: ['a', 'b'] } };
  base.generated_tool_calls = [
    { tool_name: 'get_weather', arguments: args, call_id: `call_${i}_0`, raw_arguments: JSON.stringify(args) },
    { tool_name: 'get_forecast', arguments: { city: `city ${i}`, days: 3 }, call_id: `call_${i}_1` },
  ];
  base.tool_results = [
    { tool_name: 'get_weather', expected_calls: 1, actual_calls: 1, matched_calls: passed ? 1 : 0, passed },
    { tool_name: 'get_forecast', expected_calls: 1, actual_calls: 1, matched_calls: 1, passed: true },
  ];
  base.stages.syntax.duration_ms = 0.013 + (i % 10) / 1000;
  base.stages.logic.duration_ms = 0.019 + (i % 10) / 1000;
  if (!passed) {
    const failing = base.failing_stage!;
    base.stages[failing].details = {
      diffs: [{ path: '/0/arguments/city', expected: `City ${i + 1}`, actual: `city ${i}`, kind: 'value' }],
    };
  }
  base.latency_ms = 100 + (i % 400);
  base.evaluation_ms = 0.05 + (i % 10) / 100;
  return base;
}

const dir = mkdtempSync(join(tmpdir(), 'evalp-scbench-'));
const db = openHostDatabase(dir);
try {
  const changeLog = new ChangeLog(db);
  const store = new EmbeddedScorecardStore(db, changeLog);
  const ids = Array.from({ length: total }, (_, i) => (process.env.IDS === 'uuid' ? randomUUID() : `case-${String(i).padStart(7, '0')}`));
  let wall = 0;
  let cpu = 0;
  let bytes = 0;
  for (let i = 0; i < total; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, total - i) }, (_, k) => card(i + k, ids[i + k]!));
    if (i === 0) bytes = JSON.stringify(batch[0]).length;
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    await store.upsertScorecards(batch);
    wall += performance.now() - started;
    const used = process.cpuUsage(cpuStart);
    cpu += (used.user + used.system) / 1_000;
  }
  console.log(
    `upsert ${total.toLocaleString('en-US')} cards (~${bytes} B each, batches of ${BATCH}): ${((wall * 1_000) / total).toFixed(1)} µs/card wall, ${((cpu * 1_000) / total).toFixed(1)} µs/card CPU, ${(wall / 1_000).toFixed(1)} s`,
  );
  let started = performance.now();
  let unchanged = 0;
  for (let i = 0; i < 10_000; i += BATCH) {
    const batch = Array.from({ length: BATCH }, (_, k) => ({
      ...card(i + k, ids[i + k]!),
      worker_id: 'redelivery',
      timestamp: new Date().toISOString(),
    }));
    unchanged += (await store.upsertScorecards(batch)).unchanged;
  }
  console.log(
    `redeliver 10,000 cards: ${unchanged.toLocaleString('en-US')} unchanged, ${(((performance.now() - started) * 1_000) / 10_000).toFixed(1)} µs/card`,
  );
  console.log(`change log entries: ${changeLog.latestSeq(SCORECARD_CONTAINER).toLocaleString('en-US')}`);
  started = performance.now();
  const page = await store.listScorecards(
    'bench-run',
    { passed: false, failing_stage: 'logic', tag: 'tag-3' },
    { limit: 100, offset: 1_000 },
  );
  console.log(
    `list failed/logic/tag page (limit 100, offset 1,000): ${(performance.now() - started).toFixed(1)} ms, total ${page.total.toLocaleString('en-US')}`,
  );
  started = performance.now();
  const count = await store.countScorecards('bench-run', { error_code: 'data_mismatch' });
  console.log(`count by error_code: ${(performance.now() - started).toFixed(1)} ms (${count.toLocaleString('en-US')})`);
  started = performance.now();
  let seen = 0;
  for await (const _card of store.iterateScorecards('bench-run')) seen++;
  console.log(`iterate ${seen.toLocaleString('en-US')} cards: ${((performance.now() - started) / 1_000).toFixed(1)} s`);
  console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
