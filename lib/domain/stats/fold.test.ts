import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaseOutcome } from './caseOutcome.js';
import { applyOutcome, foldDeliveries, recomputeFrom, replacesCounted } from './fold.js';
import { bucketIndex } from './logHistogram.js';
import { deliveryHistoryArbitrary, makeOutcome } from './outcomes.test-helpers.js';
import { emptyRunStatsState, parseRunStatsState, type RunStatsState } from './runStatsState.js';
import { toRunStats } from './toRunStats.js';
import { emptyEfficiencySums, isScored } from '../../domain/index.js';

const passedCase = makeOutcome({ test_case_id: 'c1', latency_ms: 120, tags: ['a', 'b', 'a'], estimated_cost_usd: 0.1 });
const failedCase = makeOutcome({
  test_case_id: 'c2',
  overall_passed: false,
  overall_score: 0.25,
  stages: { syntax: { status: 'passed' }, logic: { status: 'failed' }, execution: { status: 'skipped' }, semantics: { status: 'error' } },
  failing_stage: 'logic',
  error_code: 'argument_mismatch',
  latency_ms: 0,
  input_tokens: 7,
  output_tokens: 3,
  estimated_cost_usd: 0.2,
  category: null,
  tags: ['b'],
  complexity_level: 3,
  client_version: null,
});

describe('recomputeFrom', () => {
  it('folds outcomes into integer counters (whole state)', () => {
    expect(recomputeFrom([passedCase, failedCase])).toEqual({
      v: 1,
      completed: 2,
      not_scored: 0,
      passed: 1,
      score_sum_e9: 1_250_000_000,
      stages: {
        syntax: { ran: 2, passed: 2 },
        logic: { ran: 2, passed: 1 },
        execution: { ran: 0, passed: 0 },
        semantics: { ran: 1, passed: 0 },
      },
      latency: { zero: 1, buckets: { [String(bucketIndex(120))]: 1 } },
      latency_sum_us: 120_000,
      tokens: { input: 17, output: 8 },
      cost_e9_usd: 300_000_000,
      by_category: { orders: { completed: 1, passed: 1 }, '(none)': { completed: 1, passed: 0 } },
      by_tag: { a: { completed: 1, passed: 1 }, b: { completed: 2, passed: 1 } },
      by_complexity: { '1': { completed: 1, passed: 1 }, '3': { completed: 1, passed: 0 } },
      error_codes: { argument_mismatch: 1 },
      client_versions: { 'model-a': 1 },
      efficiency: emptyEfficiencySums(),
    } satisfies RunStatsState);
  });

  it('reads a state stored before not-scored outcomes existed as none of them', () => {
    const { not_scored: _, ...old } = recomputeFrom([passedCase]);
    expect(parseRunStatsState(JSON.stringify(old))).toEqual(recomputeFrom([passedCase]));
  });

  it('a state stored before efficiency was folded stays without it: never counted from the middle of a run', () => {
    const efficiency = { calls_made: 2, calls_needed: 1, redundant_calls: 1, model_turns: 2, tokens: 50, score: 0.5 };
    const { efficiency: _, ...old } = recomputeFrom([{ ...passedCase, efficiency }]);
    const stored = parseRunStatsState(JSON.stringify(old));
    const next = applyOutcome(stored, undefined, makeOutcome({ test_case_id: 'later', efficiency }));
    expect(next.efficiency).toBeUndefined();
    expect(toRunStats('run-1', next, 2, '2026-01-01T00:00:00Z').efficiency).toBeUndefined();
    // a state of today counts it
    expect(
      applyOutcome(recomputeFrom([passedCase]), undefined, makeOutcome({ test_case_id: 'later', efficiency })).efficiency,
    ).toMatchObject({
      cases: 1,
      calls_made: 2,
      cases_with_redundant_calls: 1,
    });
  });

  it('gives the empty state for no outcomes', () => {
    expect(recomputeFrom([])).toEqual(emptyRunStatsState());
  });
});

describe('not-scored outcomes (infrastructure failures)', () => {
  const targetDown = makeOutcome({
    test_case_id: 'c3',
    overall_passed: false,
    overall_score: 0,
    stages: {
      syntax: { status: 'error' },
      logic: { status: 'skipped' },
      execution: { status: 'skipped' },
      semantics: { status: 'skipped' },
    },
    failing_stage: 'syntax',
    error_code: 'target_timeout',
    latency_ms: 30_000,
    input_tokens: 0,
    output_tokens: 0,
    estimated_cost_usd: 0,
  });
  const judgeDown = makeOutcome({
    test_case_id: 'c4',
    overall_passed: false,
    overall_score: 0.6,
    stages: { syntax: { status: 'passed' }, logic: { status: 'passed' }, execution: { status: 'skipped' }, semantics: { status: 'error' } },
    failing_stage: 'semantics',
    error_code: 'judge_failed',
    input_tokens: 4,
  });
  // a stage that could not score for a reason this code does not know yet (e.g. an MCP server unreachable)
  const mcpDown = makeOutcome({
    test_case_id: 'c5',
    overall_passed: false,
    overall_score: 0.5,
    stages: { syntax: { status: 'passed' }, logic: { status: 'passed' }, execution: { status: 'error' }, semantics: { status: 'skipped' } },
    failing_stage: 'execution',
  });

  it('counts them in completed, not_scored, error codes, tokens and cost only', () => {
    const scoredOnly = recomputeFrom([passedCase, failedCase]);
    const withInfra = recomputeFrom([passedCase, targetDown, failedCase, judgeDown, mcpDown]);
    expect(withInfra).toEqual({
      ...scoredOnly,
      completed: 5,
      not_scored: 3,
      tokens: { input: scoredOnly.tokens.input + 4 + 10, output: scoredOnly.tokens.output + 5 + 5 },
      cost_e9_usd: scoredOnly.cost_e9_usd + 2_000_000,
      error_codes: { argument_mismatch: 1, target_timeout: 1, judge_failed: 1 },
      client_versions: { 'model-a': 4 },
    });
  });

  it('leave the pass rate, mean score and stage rates as they were, and have their own rate', () => {
    const stats = toRunStats(
      'run-1',
      recomputeFrom([passedCase, targetDown, failedCase, judgeDown, mcpDown]),
      5,
      '2026-01-01T00:00:00.000Z',
    );
    const clean = toRunStats('run-1', recomputeFrom([passedCase, failedCase]), 5, '2026-01-01T00:00:00.000Z');
    expect(stats).toMatchObject({
      completed: 5,
      scored: 2,
      passed: 1,
      failed: 1,
      not_scored: 3,
      pass_rate: 0.5,
      infrastructure_failure_rate: 0.6,
      progress_pct: 100,
    });
    expect(stats.mean_score).toBe(clean.mean_score);
    expect(stats.stages).toEqual(clean.stages);
    expect(stats.by_category).toEqual(clean.by_category);
    expect(stats.latency_ms).toEqual(clean.latency_ms);
  });
});

describe('applyOutcome', () => {
  it('replaces a counted outcome exactly (a retry that now passes)', () => {
    const retried = { ...passedCase, test_case_id: 'c2', attempt_number: 2 };
    let state = applyOutcome(emptyRunStatsState(), undefined, passedCase);
    state = applyOutcome(state, undefined, failedCase);
    state = applyOutcome(state, failedCase, retried);
    expect(state).toEqual(recomputeFrom([passedCase, retried]));
  });

  it('is a no-op when previous equals next, and never mutates its input', () => {
    const state = recomputeFrom([passedCase, failedCase]);
    const snapshot = structuredClone(state);
    expect(applyOutcome(state, failedCase, failedCase)).toEqual(snapshot);
    expect(state).toEqual(snapshot);
  });

  it('subtracting everything returns the empty state (fixed point: 0.1 + 0.2 − 0.1 − 0.2 is exactly 0)', () => {
    let state = recomputeFrom([passedCase, failedCase]);
    const zeroed = (o: CaseOutcome): CaseOutcome => ({
      ...o,
      overall_score: 0,
      latency_ms: 0,
      estimated_cost_usd: 0,
      input_tokens: 0,
      output_tokens: 0,
    });
    state = applyOutcome(state, passedCase, zeroed(passedCase));
    state = applyOutcome(state, failedCase, zeroed(failedCase));
    expect(state.cost_e9_usd).toBe(0);
    expect(state.score_sum_e9).toBe(0);
    expect(state.latency_sum_us).toBe(0);
  });
});

describe('replacesCounted', () => {
  const counted = makeOutcome({ attempt_number: 2 });
  it.each([
    { name: 'nothing counted yet', previous: undefined, next: counted, expected: true },
    { name: 'identical redelivery', previous: counted, next: { ...counted, tags: [...counted.tags] }, expected: false },
    { name: 'older attempt', previous: counted, next: makeOutcome({ attempt_number: 1, overall_passed: false }), expected: false },
    { name: 'newer attempt', previous: counted, next: makeOutcome({ attempt_number: 3 }), expected: true },
    { name: 'same attempt, changed content', previous: counted, next: makeOutcome({ attempt_number: 2, latency_ms: 5 }), expected: true },
  ])('$name -> $expected', ({ previous, next, expected }) => {
    expect(replacesCounted(previous, next)).toBe(expected);
  });
});

describe('fold == recount (property)', () => {
  it('any order, duplicates and retries give exactly the recount of the final outcomes', () => {
    fc.assert(
      fc.property(deliveryHistoryArbitrary(['run-1']), ({ finals, deliveries }) => {
        expect(foldDeliveries(deliveries)).toEqual(recomputeFrom(finals));
      }),
      { numRuns: 300 },
    );
  });

  it('pass rate and stage rates equal those of the scored cases alone, whatever the not-scored ones', () => {
    fc.assert(
      fc.property(deliveryHistoryArbitrary(['run-1']), ({ finals, deliveries }) => {
        const all = toRunStats('run-1', foldDeliveries(deliveries), finals.length, '2026-01-01T00:00:00.000Z');
        const scored = toRunStats('run-1', recomputeFrom(finals.filter((o) => isScored(o))), finals.length, '2026-01-01T00:00:00.000Z');
        expect(all.not_scored).toBe(finals.filter((o) => !isScored(o)).length);
        expect(all.scored + all.not_scored).toBe(all.completed);
        expect({
          pass_rate: all.pass_rate,
          mean_score: all.mean_score,
          stages: all.stages,
          by_tag: all.by_tag,
          latency: all.latency_ms,
        }).toEqual({
          pass_rate: scored.pass_rate,
          mean_score: scored.mean_score,
          stages: scored.stages,
          by_tag: scored.by_tag,
          latency: scored.latency_ms,
        });
      }),
      { numRuns: 200 },
    );
  });

  it('a stored state round-trips through JSON and the schema (keys like __proto__ included)', () => {
    fc.assert(
      fc.property(deliveryHistoryArbitrary(['run-1'], 10), ({ finals }) => {
        const state = recomputeFrom(finals);
        expect(parseRunStatsState(JSON.stringify(state))).toEqual(state);
      }),
      { numRuns: 100 },
    );
  });
});
