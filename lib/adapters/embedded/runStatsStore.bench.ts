/**
 * Measures the run-statistics fold on the hot path: `npx tsx lib/adapters/embedded/runStatsStore.bench.ts [cases] [batch]`
 * (defaults 400,000 and 1,000). A fresh run fed in batches as the change-feed handler does, then the same
 * outcomes redelivered, then 10% retried, then a recount from (generated) scorecards. Prints µs per outcome.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scorecard } from '../../domain/index.js';
import { openHostDatabase } from '../../host/database.js';
import type { ScorecardStore } from '../../ports/index.js';
import type { CaseOutcome } from '../../domain/stats/index.js';
import { EmbeddedRunStatsStore } from './runStatsStore.js';

const cases = Number(process.argv[2] ?? 400_000);
const batchSize = Number(process.argv[3] ?? 1_000);
const runId = 'bench-run';
const CATEGORIES = ['orders', 'products', 'inventory', 'shipping', 'refunds', 'support', 'analytics', 'abstention'];

function outcome(i: number, attempt = 1): CaseOutcome {
  const passed = (i * 7919 + attempt) % 10 < 8;
  return {
    run_id: runId,
    test_case_id: `case-${String(i).padStart(6, '0')}`,
    attempt_number: attempt,
    overall_passed: passed,
    overall_score: passed ? 1 : (i % 5) / 5,
    stages: {
      syntax: { status: 'passed' },
      logic: { status: passed ? 'passed' : 'failed' },
      execution: { status: passed ? 'passed' : 'skipped' },
      semantics: { status: 'skipped' },
    },
    ...(passed ? {} : { failing_stage: 'logic', error_code: 'argument_mismatch' }),
    latency_ms: 200 + ((i * 104_729) % 5_000) / 3,
    input_tokens: 400 + (i % 300),
    output_tokens: 40 + (i % 60),
    estimated_cost_usd: 0.000_123 * (1 + (i % 7)),
    category: CATEGORIES[i % CATEGORIES.length] ?? null,
    tags: [`tag-${i % 20}`, i % 3 === 0 ? 'parallel' : 'single'],
    complexity_level: 1 + (i % 5),
    client_version: 'gpt-4.1',
  };
}

async function feed(store: EmbeddedRunStatsStore, label: string, make: (i: number) => CaseOutcome | undefined): Promise<void> {
  const totals = new Map([[runId, cases]]);
  let applied = 0;
  let elapsed = 0n;
  for (let start = 0; start < cases; start += batchSize) {
    const batch: CaseOutcome[] = [];
    for (let i = start; i < Math.min(cases, start + batchSize); i++) {
      const o = make(i);
      if (o) batch.push(o);
    }
    const t0 = process.hrtime.bigint();
    await store.applyOutcomes(batch, totals);
    elapsed += process.hrtime.bigint() - t0;
    applied += batch.length;
  }
  const us = Number(elapsed) / 1e3 / applied;
  console.log(`${label.padEnd(28)} ${applied} outcomes, ${(Number(elapsed) / 1e9).toFixed(2)} s, ${us.toFixed(2)} µs/outcome`);
}

const dir = mkdtempSync(join(tmpdir(), 'run-stats-bench-'));
const db = openHostDatabase(dir);
try {
  const scorecards = {
    async *iterateScorecards() {
      for (let i = 0; i < cases; i++) {
        const o = outcome(i, i % 10 === 0 ? 2 : 1);
        const stage = (name: 'syntax' | 'logic' | 'execution' | 'semantics') => ({
          stage: name,
          status: o.stages[name].status,
          passed: o.stages[name].status === 'passed',
          score: null,
          duration_ms: 0,
        });
        yield {
          ...o,
          stages: { syntax: stage('syntax'), logic: stage('logic'), execution: stage('execution'), semantics: stage('semantics') },
          timestamp: '2026-01-01T00:00:00Z',
          generated_tool_calls: [],
          generated_nl_response: null,
          tool_results: [],
          evaluation_ms: 1,
          worker_id: 'w',
          client_type: 'bench',
          eval_mode: 'replay',
          api_calls_made: 0,
        } as Scorecard;
      }
    },
  } as unknown as ScorecardStore;
  const store = new EmbeddedRunStatsStore(db, scorecards);
  console.log(`cases ${cases}, batch ${batchSize}`);
  await feed(store, 'fresh run', (i) => outcome(i));
  await feed(store, 'redelivery (all identical)', (i) => outcome(i));
  await feed(store, 'retries (10% attempt 2)', (i) => (i % 10 === 0 ? outcome(i, 2) : undefined));
  const live = await store.getRunStats(runId);
  const t0 = process.hrtime.bigint();
  const recounted = await store.recomputeRunStats(runId, cases);
  const recountNs = Number(process.hrtime.bigint() - t0);
  console.log(
    `${'recompute'.padEnd(28)} ${cases} scorecards, ${(recountNs / 1e9).toFixed(2)} s, ${(recountNs / 1e3 / cases).toFixed(2)} µs/case`,
  );
  console.log(`live == recount: ${JSON.stringify({ ...live, updated_at: 0 }) === JSON.stringify({ ...recounted, updated_at: 0 })}`);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
