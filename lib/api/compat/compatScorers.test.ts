import { describe, expect, it } from 'vitest';
import type { Scorecard, TestCase } from '../../domain/index.js';
import { sampleScorecard, sampleTestCase } from '../../ports/contracts/fixtures.js';
import { COMPAT_SCORERS, aggregateScorers, scoreQuestion, weightedMean } from './compatScorers.js';

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
    const q = scoreQuestion(card(reported), tc(expected));
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
    const q = scoreQuestion(undefined, tc());
    expect([q.passed, q.score, q.scorers.every((s) => s.score === null)]).toEqual([false, null, true]);
  });
});

describe('aggregateScorers and weightedMean', () => {
  it('averages each scorer over the questions it scored and passes at the threshold (reason at 0.5)', () => {
    const questions = [
      scoreQuestion(
        card({ agent: 'a', routing_reason: 'about a refund' }),
        tc({ expected_agent: 'a', expected_routing_reason: 'about a refund' }),
      ),
      scoreQuestion(card({ agent: 'b' }), tc({ expected_agent: 'a' })),
      scoreQuestion(card({ agent: 'a' }), tc({ expected_agent: 'a' })),
    ];
    const job = aggregateScorers(questions, 0.7);
    expect(job.map((s) => [s.name, s.score, s.passed, s.weight])).toEqual([
      ['syntax', 1, true, 0.05],
      ['logic', 1, true, 0.05],
      ['execution', null, null, 0],
      ['semantics', 0.9, true, 0.5],
      ['agent_routing', 0.667, false, 0.25],
      ['routing_reason', 1, true, 0.15],
    ]);
    expect(job[4]!.rationale).toBe(
      'the endpoint\'s "agent": 2 of 3 questions passed, mean 0.667 (passes at 0.7); e.g. routed to "b" instead of "a"',
    );
    // (0.05 + 0.05 + 0.5 * 0.9 + 0.25 * 0.667 + 0.15) / 1
    expect(weightedMean(job)).toBeCloseTo(0.05 + 0.05 + 0.45 + 0.25 * 0.667 + 0.15, 3);
  });

  it('has weights summing to 1', () => {
    expect(COMPAT_SCORERS.reduce((sum, s) => sum + s.weight, 0)).toBeCloseTo(1, 9);
  });
});
