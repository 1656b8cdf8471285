import { describe, expect, it } from 'vitest';
import type { Scorecard, TestCase } from '../../domain/index.js';
import { sampleScorecard, sampleTestCase } from '../../ports/contracts/fixtures.js';
import {
  COMPAT_SCORERS,
  DATA_METHODOLOGY_CRITERION,
  DEFAULT_REQUIRED_SCORERS,
  aggregateScorers,
  scoreQuestion,
  weightedMean,
} from './compatScorers.js';

const REQUIRED = new Set<string>(DEFAULT_REQUIRED_SCORERS);

const tc = (extra: Partial<TestCase> = {}): TestCase => ({ ...sampleTestCase('q1'), expected_tool_calls: [], ...extra });
const card = (extra: Partial<Scorecard> = {}): Scorecard => {
  const base = sampleScorecard('job', 'q1');
  return {
    ...base,
    stages: { ...base.stages, semantics: { stage: 'semantics', status: 'passed', passed: true, score: 0.9, duration_ms: 1 } },
    ...extra,
  };
};
const pick = (q: ReturnType<typeof scoreQuestion>, name: string) => q.scorers.find((s) => s.name === name)!;

describe('scoreQuestion', () => {
  it.each<
    [
      string,
      Partial<TestCase>,
      Partial<Scorecard>,
      { agent: [number | null, boolean | null]; reason: [number | null, boolean | null]; passed: boolean },
    ]
  >([
    [
      'agent matches ignoring case and spaces',
      { expected_agent: 'Refunds ' },
      { agent: 'refunds' },
      { agent: [1, true], reason: [null, null], passed: true },
    ],
    ['another agent', { expected_agent: 'shipping' }, { agent: 'billing' }, { agent: [0, false], reason: [null, null], passed: false }],
    ['no agent reported', { expected_agent: 'shipping' }, {}, { agent: [0, false], reason: [null, null], passed: false }],
    [
      'the same reason',
      { expected_routing_reason: 'the question is about a refund' },
      { routing_reason: 'the question is about a refund' },
      { agent: [null, null], reason: [1, true], passed: true },
    ],
    [
      'an unrelated reason',
      { expected_routing_reason: 'the question is about a refund' },
      { routing_reason: 'weather forecast lookup' },
      { agent: [null, null], reason: [0, false], passed: false },
    ],
    ['no reason reported', { expected_routing_reason: 'refund' }, {}, { agent: [null, null], reason: [0, false], passed: false }],
    [
      'nothing expected beyond the answer',
      {},
      { agent: 'x', routing_reason: 'y' },
      { agent: [null, null], reason: [null, null], passed: true },
    ],
  ])('%s', (_label, expected, reported, want) => {
    const q = scoreQuestion(card(reported), tc(expected), 0.7, REQUIRED);
    expect([
      [pick(q, 'agent_routing').score, pick(q, 'agent_routing').passed],
      [pick(q, 'routing_reason').score, pick(q, 'routing_reason').passed],
      q.passed,
    ]).toEqual([want.agent, want.reason, want.passed]);
  });

  it('reads the stages: passed, failed, could not score (null), not run (null)', () => {
    const base = card();
    const q = scoreQuestion(
      {
        ...base,
        overall_passed: false,
        stages: {
          ...base.stages,
          semantics: {
            stage: 'semantics',
            status: 'error',
            passed: false,
            score: null,
            error_code: 'judge_failed',
            message: 'judge timed out',
            duration_ms: 1,
          },
        },
      },
      tc(),
      0.7,
      REQUIRED,
    );
    expect(q.scorers.slice(0, 4).map((s) => [s.name, s.score, s.passed])).toEqual([
      ['syntax', 1, true],
      ['logic', 1, true],
      ['execution', null, null],
      ['semantics', null, null],
    ]);
    expect(pick(q, 'semantics').rationale).toBe('could not score (judge_failed): judge timed out');
    expect([q.passed, q.score]).toEqual([false, 1]);
  });

  it('scores nothing for a question without a scorecard', () => {
    const q = scoreQuestion(undefined, tc(), 0.7, REQUIRED);
    expect([q.passed, q.score, q.scorers.every((s) => s.score === null)]).toEqual([false, null, true]);
  });
});

describe('aggregateScorers and weightedMean', () => {
  it('averages each scorer over the questions it scored and passes at the threshold (reason at 0.5)', () => {
    const questions = [
      scoreQuestion(
        card({ agent: 'a', routing_reason: 'about a refund' }),
        tc({ expected_agent: 'a', expected_routing_reason: 'about a refund' }),
        0.7,
        REQUIRED,
      ),
      scoreQuestion(card({ agent: 'b' }), tc({ expected_agent: 'a' }), 0.7, REQUIRED),
      scoreQuestion(card({ agent: 'a' }), tc({ expected_agent: 'a' }), 0.7, REQUIRED),
    ];
    const job = aggregateScorers(questions, 0.7, REQUIRED);
    expect(job.map((s) => [s.name, s.score, s.passed, s.weight, s.required])).toEqual([
      ['syntax', 1, true, 0.05, true],
      ['logic', 1, true, 0.05, false],
      ['execution', null, null, 0, false],
      ['semantics', 0.9, true, 0.35, true],
      ['agent_routing', 0.667, false, 0.2, false],
      ['routing_reason', 1, true, 0.1, false],
      ['numerical_accuracy', null, null, 0.15, false],
      ['data_methodology', null, null, 0.1, false],
    ]);
    expect(job[4]!.rationale).toBe(
      'the endpoint\'s "agent": 2 of 3 questions passed, mean 0.667 (passes at 0.7); e.g. routed to "b" instead of "a"',
    );
    // the scorers that scored, weights renormalised: (0.05 + 0.05 + 0.35 * 0.9 + 0.2 * 0.667 + 0.1) / 0.75
    expect(weightedMean(job)).toBeCloseTo((0.05 + 0.05 + 0.35 * 0.9 + 0.2 * 0.667 + 0.1) / 0.75, 3);
  });

  it('numerical_accuracy: the expected numbers found in the answer within the stage-3 tolerance', () => {
    const score = (expected: string, answer: string | null, status: 'passed' | 'error' = 'passed') => {
      const base = card({ generated_nl_response: answer });
      const c = status === 'error' ? { ...base, stages: { ...base.stages, syntax: { ...base.stages.syntax, status } } } : base;
      const r = pick(scoreQuestion(c, tc({ expected_nl_response: expected }), 0.7, REQUIRED), 'numerical_accuracy');
      return [r.score, r.passed, r.rationale];
    };
    expect(score('Your refund of $1,234.50 for order 42 was issued.', 'Refund 1234.5 issued for order #42')).toEqual([
      1,
      true,
      'all 2 expected numbers stated ($1,234.50, 42)',
    ]);
    expect(score('Revenue was 12% higher: 3.5 million.', 'It grew 0.12, to 3,500,000')).toEqual([1, true, expect.any(String)]);
    expect(score('Refund of $25 on order 42.', 'Refund of $26 on order 42.')).toEqual([
      0.5,
      false,
      '1 of 2 expected numbers stated; missing $25',
    ]);
    expect(score('Refund of $25 on order 42.', '')).toEqual([0, false, 'no response to look for numbers in']);
    expect(score('Refunds are processed quickly.', 'Done in 2 days')).toEqual([null, null, 'the expected response states no number']);
    expect(score('Refund of $25.', null, 'error')).toEqual([null, null, 'not scored: the endpoint did not answer']);
    // 0.01% relative tolerance: 100.005 is 100.00 within it, 100.1 is not
    expect(score('Total 100.00', 'Total 100.005')[1]).toBe(true);
    expect(score('Total 100.00', 'Total 100.1')[1]).toBe(false);
  });

  it("data_methodology: the judge's criterion mapped from 1-5 to 0-1, not scored without it", () => {
    const withCriteria = (criteria: unknown[]) => {
      const base = card();
      return { ...base, stages: { ...base.stages, semantics: { ...base.stages.semantics, details: { criteria } } } };
    };
    const verdict = (score: number) => ({
      name: DATA_METHODOLOGY_CRITERION.name,
      score,
      integer_score: Math.round(score),
      method: 'logprobs',
      reasoning: 'used the orders API for the right month',
      weight: 1,
      input_tokens: 1,
      output_tokens: 1,
      cost_usd: 0,
    });
    const r = (c: Scorecard) => pick(scoreQuestion(c, tc(), 0.7, REQUIRED), 'data_methodology');
    expect([r(withCriteria([verdict(4.6)])).score, r(withCriteria([verdict(4.6)])).passed]).toEqual([0.9, true]);
    expect([r(withCriteria([verdict(2)])).score, r(withCriteria([verdict(2)])).passed]).toEqual([0.25, false]);
    expect(r(card()).score).toBeNull();
    expect(r(card()).rationale).toMatch(/needs the LLM judge/);
  });

  it('required scorers decide the question: an optional one failing does not, a required one does', () => {
    const c = card({ generated_nl_response: 'Refund of $26 on order 42.' });
    const t = tc({ expected_nl_response: 'Refund of $25 on order 42.' });
    expect(scoreQuestion(c, t, 0.7, REQUIRED).passed).toBe(true);
    const strict = scoreQuestion(c, t, 0.7, new Set(['syntax', 'numerical_accuracy']));
    expect([strict.passed, pick(strict, 'numerical_accuracy').required]).toEqual([false, true]);
  });

  it('has weights summing to 1', () => {
    expect(COMPAT_SCORERS.reduce((sum, s) => sum + s.weight, 0)).toBeCloseTo(1, 9);
  });
});
