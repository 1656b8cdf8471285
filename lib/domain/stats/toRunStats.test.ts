import { describe, expect, it } from 'vitest';
import { RunStatsSchema, type RunStats } from '../index.js';
import { recomputeFrom } from './fold.js';
import { bucketIndex, bucketValue } from './logHistogram.js';
import { makeOutcome } from './outcomes.test-helpers.js';
import { emptyRunStatsState } from './runStatsState.js';
import { toRunStats } from './toRunStats.js';

const NOW = new Date('2026-01-02T03:04:05.000Z');
const at = (ms: number) => bucketValue(bucketIndex(ms));

describe('toRunStats', () => {
  it('empty state: zero counters, null rates and percentiles', () => {
    expect(toRunStats('run-1', emptyRunStatsState(), 10, NOW)).toEqual({
      run_id: 'run-1',
      total: 10,
      completed: 0,
      scored: 0,
      passed: 0,
      failed: 0,
      not_scored: 0,
      progress_pct: 0,
      pass_rate: null,
      infrastructure_failure_rate: null,
      mean_score: null,
      stages: {
        syntax: { ran: 0, passed: 0, pass_rate: null },
        logic: { ran: 0, passed: 0, pass_rate: null },
        execution: { ran: 0, passed: 0, pass_rate: null },
        semantics: { ran: 0, passed: 0, pass_rate: null },
      },
      latency_ms: { p50: null, p95: null, p99: null, mean: null },
      tokens: { input: 0, output: 0 },
      cost_usd: 0,
      by_category: {},
      by_tag: {},
      by_complexity: {},
      error_codes: {},
      client_versions: [],
      efficiency: {
        cases: 0,
        mean_score: null,
        calls_made: 0,
        calls_needed: 0,
        redundant_calls: 0,
        cases_with_redundant_calls: 0,
        mean_model_turns: null,
        mean_tokens: null,
      },
      updated_at: '2026-01-02T03:04:05.000Z',
    } satisfies RunStats);
  });

  it('four outcomes, one not scored (target timeout): rates, percentiles, breakdowns (whole document)', () => {
    const state = recomputeFrom([
      makeOutcome({
        test_case_id: 'a',
        latency_ms: 100,
        client_version: 'm-2',
        efficiency: { calls_made: 4, calls_needed: 2, redundant_calls: 1, model_turns: 2, tokens: 100, score: 0.5 },
      }),
      makeOutcome({
        test_case_id: 'b',
        latency_ms: 200,
        tags: ['a', 'slow'],
        complexity_level: 2,
        efficiency: { calls_made: 1, calls_needed: 1, redundant_calls: 0, model_turns: 1, tokens: 41, score: 1 },
      }),
      makeOutcome({
        test_case_id: 'c',
        overall_passed: false,
        overall_score: 0.5,
        stages: {
          syntax: { status: 'passed' },
          logic: { status: 'failed' },
          execution: { status: 'skipped' },
          semantics: { status: 'skipped' },
        },
        error_code: 'missing_call',
        failing_stage: 'logic',
        latency_ms: 300,
        category: 'refunds',
      }),
      makeOutcome({
        test_case_id: 'd',
        overall_passed: false,
        overall_score: 0,
        stages: {
          syntax: { status: 'error' },
          logic: { status: 'skipped' },
          execution: { status: 'skipped' },
          semantics: { status: 'skipped' },
        },
        error_code: 'target_timeout',
        failing_stage: 'syntax',
        latency_ms: 30_000,
        category: 'refunds',
        client_version: null,
        // not scored: its efficiency is not the model's and never counts
        efficiency: { calls_made: 9, calls_needed: 1, redundant_calls: 8, model_turns: 9, tokens: 999, score: 0.111111 },
      }),
    ]);
    const stats = toRunStats('run-1', state, 8, '2026-01-02T03:04:05Z');
    expect(stats).toEqual({
      run_id: 'run-1',
      total: 8,
      completed: 4,
      scored: 3,
      passed: 2,
      failed: 1,
      not_scored: 1,
      progress_pct: 50,
      pass_rate: 2 / 3,
      infrastructure_failure_rate: 0.25,
      mean_score: 2.5 / 3,
      stages: {
        syntax: { ran: 3, passed: 3, pass_rate: 1 },
        logic: { ran: 3, passed: 2, pass_rate: 2 / 3 },
        execution: { ran: 0, passed: 0, pass_rate: null },
        semantics: { ran: 0, passed: 0, pass_rate: null },
      },
      latency_ms: { p50: at(200), p95: at(200), p99: at(200), mean: 200 },
      tokens: { input: 40, output: 20 },
      cost_usd: 0.004,
      by_category: { orders: { completed: 2, passed: 2 }, refunds: { completed: 1, passed: 0 } },
      by_tag: { a: { completed: 3, passed: 2 }, slow: { completed: 1, passed: 1 } },
      by_complexity: { '1': { completed: 2, passed: 1 }, '2': { completed: 1, passed: 1 } },
      error_codes: { missing_call: 1, target_timeout: 1 },
      client_versions: ['m-2', 'model-a'],
      efficiency: {
        cases: 2,
        mean_score: 0.75,
        calls_made: 5,
        calls_needed: 3,
        redundant_calls: 1,
        cases_with_redundant_calls: 1,
        mean_model_turns: 1.5,
        mean_tokens: 70.5,
      },
      updated_at: '2026-01-02T03:04:05Z',
    } satisfies RunStats);
    expect(RunStatsSchema.parse(stats)).toEqual(stats);
  });

  it.each([
    { total: 0, completed: 3, progress: 0 },
    { total: 2, completed: 3, progress: 100 },
    { total: 3, completed: 1, progress: (1 / 3) * 100 },
    { total: Number.NaN, completed: 1, progress: 0 },
  ])('progress with total $total and $completed completed is $progress', ({ total, completed, progress }) => {
    const state = recomputeFrom(Array.from({ length: completed }, (_, i) => makeOutcome({ test_case_id: `c${i}` })));
    expect(toRunStats('r', state, total, NOW).progress_pct).toBe(progress);
  });

  it('clamps an inconsistent (negative) state into a valid document', () => {
    const state = {
      ...emptyRunStatsState(),
      completed: -1,
      passed: -1,
      by_tag: { x: { completed: -1, passed: -1 } },
      error_codes: { missing_call: -1 },
    };
    const stats = toRunStats('r', state, 5, NOW);
    expect(RunStatsSchema.safeParse(stats).success).toBe(true);
    expect([stats.completed, stats.failed, stats.by_tag, stats.error_codes]).toEqual([0, 0, {}, {}]);
  });
});
