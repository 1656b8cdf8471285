import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Scorecard, StageName, StageStatus } from '../../domain/index.js';
import { ChangeLog } from '../../host/changefeed/index.js';
import { openHostDatabase, type HostDatabase } from '../../host/database.js';
import { CaseOutcomeSchema, caseOutcomeOf, recomputeFrom, toRunStats } from '../../domain/stats/index.js';
import { SCORECARD_CONTAINER } from './index.js';
import { createEmbeddedStores } from './stores.js';

const stage = (name: StageName, status: StageStatus) => ({
  stage: name,
  status,
  passed: status === 'passed',
  score: status === 'passed' ? 1 : 0,
  duration_ms: 1,
});

function card(i: number, attempt: number, passed: boolean): Scorecard {
  return {
    run_id: 'run-1',
    test_case_id: `case-${i}`,
    timestamp: '2026-01-01T00:00:00Z',
    stages: {
      syntax: stage('syntax', 'passed'),
      logic: stage('logic', passed ? 'passed' : 'failed'),
      execution: stage('execution', 'skipped'),
      semantics: stage('semantics', 'skipped'),
    },
    ...(passed ? {} : { failing_stage: 'logic' as const, error_code: 'argument_mismatch' as const }),
    generated_tool_calls: [],
    generated_nl_response: null,
    tool_results: [],
    overall_passed: passed,
    overall_score: passed ? 1 : 0.5,
    latency_ms: 100 + i * 7 + attempt,
    evaluation_ms: 1,
    worker_id: 'w1',
    attempt_number: attempt,
    client_type: 'replay',
    client_version: 'model-a',
    eval_mode: 'replay',
    input_tokens: 100,
    output_tokens: 10,
    api_calls_made: 0,
    estimated_cost_usd: 0.0001,
    category: i % 2 ? 'orders' : 'refunds',
    tags: ['t'],
    complexity_level: 1 + (i % 5),
  };
}

let dir: string;
let db: HostDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stores-'));
  db = openHostDatabase(dir);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('createEmbeddedStores', () => {
  it("provides every port, and run statistics folded from the scorecards' change feed equal the recount", async () => {
    const changeLog = new ChangeLog(db);
    const stores = createEmbeddedStores(db, changeLog);
    expect(Object.keys(stores).sort()).toEqual([
      'alerts',
      'annotations',
      'audit',
      'benchmarkRuns',
      'benchmarks',
      'calibrations',
      'catalogs',
      'cleanedJobs',
      'clients',
      'experiments',
      'feedback',
      'organizations',
      'pairwiseVerdicts',
      'runStats',
      'runs',
      'scorecards',
      'suiteVersions',
      'suites',
      'targets',
      'testCases',
    ]);

    const first = Array.from({ length: 30 }, (_, i) => card(i, 1, i % 3 !== 0));
    const retries = first.filter((_, i) => i % 3 === 0).map((c) => card(Number(c.test_case_id.slice(5)), 2, true));
    await stores.scorecards.upsertScorecards(first);
    await stores.scorecards.upsertScorecards([...first.slice(0, 5), ...retries]); // redelivered + retried

    // the feed: every change-log entry, delivered in batches of 7 (twice: at-least-once)
    const entries = changeLog.read(SCORECARD_CONTAINER, 0, 1_000).map((e) => CaseOutcomeSchema.parse(JSON.parse(e.body)));
    const totals = new Map([['run-1', 30]]);
    const deliveries = [...entries, ...entries];
    for (let i = 0; i < deliveries.length; i += 7) await stores.runStats.applyOutcomes(deliveries.slice(i, i + 7), totals);
    const live = await stores.runStats.getRunStats('run-1');
    const finals = [];
    for await (const c of stores.scorecards.iterateScorecards('run-1')) finals.push(caseOutcomeOf(c));
    expect(finals).toHaveLength(30);
    expect(live).toEqual(toRunStats('run-1', recomputeFrom(finals), 30, live?.updated_at ?? ''));
    expect([live?.completed, live?.passed, live?.progress_pct]).toEqual([30, 30, 100]);

    const recounted = await stores.runStats.recomputeRunStats('run-1', 30);
    expect({ ...recounted, updated_at: '' }).toEqual({ ...live, updated_at: '' });
  });
});
