import { describe, expect, it } from 'vitest';
import type { Scorecard, StageResult, StageStatus } from '../domain/index.js';
import { describeFailure, MAX_DIFF_LINES } from './failureDiff.js';
import { LatencyHistogramBuilder, niceBinWidth } from './latencyHistogram.js';
import { StageFunnelBuilder } from './stageFunnel.js';
import { parseXml, XmlError } from './testing/xmlTree.test-helpers.js';

const stage = (name: StageResult['stage'], status: StageStatus, extra: Partial<StageResult> = {}): StageResult => ({
  stage: name,
  status,
  passed: status === 'passed',
  score: status === 'passed' ? 1 : status === 'failed' ? 0 : null,
  duration_ms: 0,
  ...extra,
});

function card(statuses: [StageStatus, StageStatus, StageStatus, StageStatus], extra: Partial<Scorecard> = {}): Scorecard {
  const [syntax, logic, execution, semantics] = statuses;
  const passed = statuses.every((s) => s === 'passed' || s === 'skipped');
  return {
    run_id: 'r',
    test_case_id: 'c',
    timestamp: '2026-11-22T00:00:00Z',
    stages: {
      syntax: stage('syntax', syntax),
      logic: stage('logic', logic),
      execution: stage('execution', execution),
      semantics: stage('semantics', semantics),
    },
    generated_tool_calls: [],
    generated_nl_response: null,
    tool_results: [],
    overall_passed: passed,
    overall_score: passed ? 1 : 0,
    latency_ms: 0,
    evaluation_ms: 0,
    worker_id: 'w',
    attempt_number: 1,
    client_type: 't',
    client_version: null,
    eval_mode: 'replay',
    input_tokens: 0,
    output_tokens: 0,
    api_calls_made: 0,
    estimated_cost_usd: 0,
    category: null,
    tags: [],
    complexity_level: 1,
    ...extra,
  };
}

describe('the stage funnel', () => {
  it('keeps a case until its first failed or errored stage; skipped stages do not stop it', () => {
    const funnel = new StageFunnelBuilder();
    funnel.add(card(['passed', 'passed', 'passed', 'passed']));
    funnel.add(card(['failed', 'skipped', 'skipped', 'skipped']));
    funnel.add(card(['passed', 'failed', 'passed', 'passed']));
    funnel.add(card(['passed', 'passed', 'skipped', 'error']));
    expect(funnel.result()).toEqual([
      { stage: 'syntax', ran: 4, remaining: 3 },
      { stage: 'logic', ran: 3, remaining: 2 },
      { stage: 'execution', ran: 2, remaining: 2 },
      { stage: 'semantics', ran: 3, remaining: 1 },
    ]);
  });
});

describe('the latency histogram', () => {
  it.each([
    [4404, 250],
    [95, 5],
    [0, 1],
    [1_000_000, 100_000],
  ])('a p99 of %i ms gives bins of %i ms', (p99, width) => {
    expect(niceBinWidth(p99 * 1.05)).toBe(width);
  });

  it('fills closed bins up to just past p99 and one open bin for the tail', () => {
    const h = new LatencyHistogramBuilder(95);
    for (const v of [0, 4.9, 5, 99, 100, 5000, Number.NaN, -3]) h.add(v);
    const result = h.result();
    expect(result.bin_ms).toBe(5);
    expect(result.bins).toHaveLength(21);
    expect(result.bins.slice(0, 2)).toEqual([
      { from_ms: 0, to_ms: 5, count: 4 },
      { from_ms: 5, to_ms: 10, count: 1 },
    ]);
    expect(result.bins.at(-1)).toEqual({ from_ms: 100, to_ms: null, count: 2 });
    expect(result.bins.at(-2)).toEqual({ from_ms: 95, to_ms: 100, count: 1 });
  });
});

describe('describeFailure', () => {
  it.each([
    ['a passing case', card(['passed', 'passed', 'skipped', 'skipped']), undefined],
    [
      'a logic diff: missing, extra, mismatched and coerced entries',
      card(['passed', 'failed', 'skipped', 'skipped'], {
        failing_stage: 'logic',
        error_code: 'argument_mismatch',
        stages: {
          ...card(['passed', 'failed', 'skipped', 'skipped']).stages,
          logic: stage('logic', 'failed', {
            error_code: 'argument_mismatch',
            message: 'search: /sort expected "rating"',
            details: {
              calls: [
                {
                  tool_name: 'search',
                  status: 'partial',
                  entries: [
                    { path: '/sort', kind: 'mismatch', expected: 'rating', actual: 'relevance' },
                    { path: '/n', kind: 'coerced', expected: 1, actual: '1' },
                    { path: '/q', kind: 'missing', expected: 'x' },
                  ],
                },
                { tool_name: 'get_order', status: 'missing', entries: [] },
                { tool_name: 'ping', status: 'extra', entries: [] },
              ],
            },
          }),
        },
      }),
      {
        stage: 'logic',
        status: 'failed',
        error_code: 'argument_mismatch',
        message: 'search: /sort expected "rating"',
        diff: [
          'search /sort: expected "rating", got "relevance"',
          'search /q: missing (expected "x")',
          'missing call get_order',
          'unexpected call ping',
        ],
      },
    ],
    [
      'a judge that could not score',
      card(['passed', 'passed', 'passed', 'error'], {
        failing_stage: 'semantics',
        error_code: 'judge_failed',
        stages: {
          ...card(['passed', 'passed', 'passed', 'error']).stages,
          semantics: stage('semantics', 'error', { error_code: 'judge_failed', message: 'timeout' }),
        },
      }),
      { stage: 'semantics', status: 'error', error_code: 'judge_failed', message: 'timeout', diff: [] },
    ],
  ])('%s', (_name, input, expected) => {
    expect(describeFailure(input)).toEqual(expected);
  });

  it(`caps the diff at ${MAX_DIFF_LINES} lines with a count`, () => {
    const base = card(['passed', 'failed', 'skipped', 'skipped']);
    const entries = Array.from({ length: 20 }, (_, i) => ({ path: `/a${i}`, kind: 'mismatch', expected: i, actual: i + 1 }));
    const failure = describeFailure({
      ...base,
      stages: { ...base.stages, logic: stage('logic', 'failed', { details: { calls: [{ tool_name: 't', status: 'partial', entries }] } }) },
    })!;
    expect(failure.diff).toHaveLength(MAX_DIFF_LINES);
    expect(failure.diff.at(-1)).toBe(`… and ${20 - MAX_DIFF_LINES + 1} more`);
  });
});

describe('the test XML reader', () => {
  it.each([
    ['<a><b></a></b>', /closes/],
    ['<a>x & y</a>', /bare &/],
    ['<a>]]></a>', /"]]>" in text/],
    ['<a v=1/>', /quoted/],
    ['<a>\u0001</a>', /not allowed/],
    ['<a/><b/>', /second root/],
    ['<a>&bogus;</a>', /unknown entity/],
  ])('rejects %j', (xml, why) => {
    expect(() => parseXml(xml)).toThrow(XmlError);
    expect(() => parseXml(xml)).toThrow(why);
  });
});
