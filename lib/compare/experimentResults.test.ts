import { describe, expect, it } from 'vitest';
import { ExperimentCreateSchema, ExperimentSchema, type Experiment, type ExperimentCaseOutcome } from '../domain/index.js';
import { experimentResults } from './experimentResults.js';

function experiment(overrides: Partial<Experiment> = {}): Experiment {
  const settings = ExperimentCreateSchema.parse({
    name: 'b vs a',
    hypothesis: 'b passes more cases',
    suite_id: 'retail',
    target_id: 't',
    variants: [{ name: 'a', control: true }, { name: 'b' }],
  });
  return ExperimentSchema.parse({
    ...settings,
    id: 'e1',
    minimum_sample_size: 10,
    status: 'running',
    created_by: 'tester',
    created_at: '2026-11-26T05:00:00Z',
    ...overrides,
  });
}

/** outcomes from a pattern: one letter per case, P = both pass, A = control only, B = variant only, F = both fail */
function outcomes(
  pattern: string,
  extra: (i: number) => { a?: Partial<ExperimentCaseOutcome>; b?: Partial<ExperimentCaseOutcome> } = () => ({}),
) {
  const a = new Map<string, ExperimentCaseOutcome>();
  const b = new Map<string, ExperimentCaseOutcome>();
  [...pattern].forEach((ch, i) => {
    const id = `c${String(i).padStart(3, '0')}`;
    a.set(id, { passed: ch === 'P' || ch === 'A', ...extra(i).a });
    b.set(id, { passed: ch === 'P' || ch === 'B', ...extra(i).b });
  });
  return new Map([
    ['a', a],
    ['b', b],
  ]);
}

describe('experimentResults', () => {
  it('frequentist: b = 2, c = 8 gives the exact McNemar p = 2 * 56 / 1024 = 0.109375, no winner', () => {
    const { results } = experimentResults(experiment(), { outcomes: outcomes('PPPPPAABBBBBBBBFFFFF'), runsComplete: true });
    const c = results.comparisons[0]!;
    expect([c.control_only, c.variant_only, c.paired_cases]).toEqual([2, 8, 20]);
    expect(c.p_value).toBeCloseTo(0.109375, 12);
    expect(c.difference.estimate).toBeCloseTo(0.3, 12);
    expect(c.odds_ratio).toBe(4);
    // Cohen's h = 2 asin(sqrt(0.65)) - 2 asin(sqrt(0.35))
    expect(c.effect_size).toEqual({ name: 'cohens_h', value: expect.closeTo(0.6093853080307954, 12) });
    expect(c.decision).toBe('inconclusive');
    expect(results.verdict).toBe('no_winner');
    expect(results.winner).toBeNull();
    expect(results.recommendation).toMatch(/keep "a"/);
    expect(results.variants.map((v) => [v.name, v.passed, v.scored])).toEqual([
      ['a', 7, 20],
      ['b', 13, 20],
    ]);
  });

  it('frequentist: 0 vs 10 discordant pairs (p = 2 / 1024) makes b the winner', () => {
    const { results } = experimentResults(experiment(), { outcomes: outcomes('PPPPPBBBBBBBBBBFFFFF'), runsComplete: true });
    expect(results.comparisons[0]!.p_value).toBeCloseTo(2 / 1024, 12);
    expect(results.comparisons[0]!.decision).toBe('better');
    expect(results.winner).toBe('b');
    expect(results.verdict).toBe('winner');
    expect(results.recommendation).toMatch(/Adopt "b"/);
  });

  it('frequentist waits for the minimum sample before deciding (no peeking)', () => {
    const { results } = experimentResults(experiment({ minimum_sample_size: 100 }), {
      outcomes: outcomes('PPPPPBBBBBBBBBBFFFFF'),
      runsComplete: false,
    });
    expect(results.comparisons[0]!.decidable).toBe(false);
    expect(results.comparisons[0]!.decision).toBe('inconclusive');
    expect(results.verdict).toBe('no_winner_yet');
    expect(results.recommendation).toMatch(/20 of the 100 paired cases/);
  });

  it('not-scored cases drop out of the pairing', () => {
    const data = outcomes('PPBB');
    data.get('a')!.set('c000', { passed: null });
    const { results } = experimentResults(experiment(), { outcomes: data, runsComplete: true });
    expect(results.comparisons[0]!.paired_cases).toBe(3);
    expect(results.variants[0]!.scored).toBe(3);
  });

  // Control 1 of 2, variant 2 of 2: posteriors Beta(2, 2) and Beta(3, 1). By hand,
  // P(pB > pA) = int 3x^2 (3x^2 - 2x^3) dx = 9/5 - 1 = 0.8, and
  // E[max(pA - pB, 0)] = int 6y(1-y) y^4/4 dy = 1.5 (1/6 - 1/7) = 1/28 = 0.0357.
  it('bayesian: probability of improvement and expected loss against hand-computed values', () => {
    const { results } = experimentResults(experiment({ method: 'bayesian' }), { outcomes: outcomes('PB'), runsComplete: true });
    const c = results.comparisons[0]!;
    expect(c.probability_of_improvement).toBeCloseTo(0.8, 10);
    expect(c.expected_loss).toBeCloseTo(1 / 28, 2);
    expect(c.p_value).toBeNull();
    expect(c.decision).toBe('inconclusive');
  });

  it('sequential: decides at any look and carries the running minimum p-value forward', () => {
    const e = experiment({ method: 'sequential', minimum_sample_size: 1000 });
    const { results, sequentialP } = experimentResults(e, { outcomes: outcomes('B'.repeat(20)), runsComplete: false });
    expect(results.comparisons[0]!.p_value).toBeCloseTo(21 / 2 ** 20, 12);
    expect(results.winner).toBe('b');
    // a later look with balanced data keeps the earlier evidence
    const later = experimentResults(
      { ...e, sequential_p: sequentialP },
      { outcomes: outcomes('B'.repeat(20) + 'A'.repeat(20)), runsComplete: false },
    );
    expect(later.results.comparisons[0]!.p_value).toBeCloseTo(21 / 2 ** 20, 12);
  });

  // differences -10, -20, -30 ms: mean -20, sd 10, t = -20 / (10 / sqrt 3) = -3.4641 on 2 df;
  // the t(2) CDF is 1/2 + t / (2 sqrt(2 + t^2)), so p = 2 (1/2 - 3.4641 / (2 sqrt 14)) = 0.074180; Cohen's d_z = -2
  it('latency as the primary metric: paired t-test and Cohen d against hand-computed values (lower is better)', () => {
    const e = experiment({ primary_metric: 'latency_ms', alpha: 0.1 });
    const data = outcomes('PPP', (i) => ({ a: { latency_ms: 100 }, b: { latency_ms: 90 - 10 * i } }));
    const { results } = experimentResults(e, { outcomes: data, runsComplete: true });
    const c = results.comparisons[0]!;
    expect(c.p_value).toBeCloseTo(0.07417990022744858, 6);
    expect(c.difference.estimate).toBeCloseTo(-20, 12);
    expect(c.effect_size).toEqual({ name: 'cohens_d', value: expect.closeTo(-2, 12) });
    expect(c.decision).toBe('better');
    expect(results.winner).toBe('b');
    expect(results.recommendation).toMatch(/latency_ms 20 ms below "a"/);
    // at alpha 0.05 the same data decide nothing
    expect(experimentResults({ ...e, alpha: 0.05 }, { outcomes: data, runsComplete: true }).results.verdict).toBe('no_winner');
  });

  it('a failed guardrail blocks the winner: 50% slower with 20% allowed', () => {
    const e = experiment({
      guardrails: [
        { metric: 'latency_ms', max_degradation: 0.2 },
        { metric: 'cost_usd', max_degradation: 0.1 },
      ],
    });
    const data = outcomes('PPPPPBBBBBBBBBBFFFFF', (i) => ({ a: { latency_ms: 100 + i }, b: { latency_ms: 150 + 1.5 * i } }));
    const { results } = experimentResults(e, { outcomes: data, runsComplete: true });
    const [latency, cost] = results.comparisons[0]!.guardrails;
    expect(latency!.status).toBe('failed');
    expect(latency!.degradation!.estimate).toBeCloseTo(0.5, 10);
    expect(cost!.status).toBe('no_data');
    expect(results.winner).toBeNull();
    expect(results.recommendation).toMatch(/latency_ms \(failed\)/);
  });

  it('a pass-rate guardrail passes when the whole interval of the drop is within the allowance', () => {
    const e = experiment({ guardrails: [{ metric: 'pass_rate', max_degradation: 0.5 }] });
    const { results } = experimentResults(e, { outcomes: outcomes('PPPPPBBBBBBBBBBFFFFF'), runsComplete: true });
    expect(results.comparisons[0]!.guardrails[0]!.status).toBe('passed');
    expect(results.winner).toBe('b');
  });
});

describe('ExperimentCreateSchema', () => {
  it('latency and cost decide only by the frequentist method', () => {
    const bad = ExperimentCreateSchema.safeParse({
      name: 'x',
      hypothesis: 'y',
      suite_id: 's',
      target_id: 't',
      primary_metric: 'cost_usd',
      method: 'sequential',
      variants: [{ name: 'a', control: true }, { name: 'b' }],
    });
    expect(bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'method: sequential decides on pass_rate only; cost_usd uses the frequentist paired t-test',
    ]);
  });

  it('names the field of each problem', () => {
    const bad = ExperimentCreateSchema.safeParse({
      name: 'x',
      hypothesis: 'y',
      suite_id: 's',
      variants: [{ name: 'a' }, { name: 'a', target_id: 't' }],
      guardrails: [
        { metric: 'cost_usd', max_degradation: 0.1 },
        { metric: 'cost_usd', max_degradation: 0.2 },
      ],
    });
    expect(bad.success).toBe(false);
    const problems = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        'variants: exactly one variant must be the control, found 0',
        'variants.1.name: duplicate variant name "a"',
        'variants.0.target_id: required unless the experiment has a target_id',
        'guardrails.1.metric: duplicate guardrail "cost_usd"',
      ]),
    );
  });
});
