import { describe, expect, it } from 'vitest';
import { detectRegressions } from './detectRegressions.js';
import type { RegressionEvidence } from './regressionEvidence.js';
import { resolveThresholds } from './thresholds.js';

const DEFAULTS = resolveThresholds();

function evidence(overrides: Partial<RegressionEvidence> = {}): RegressionEvidence {
  return {
    paired_cases: 400,
    accuracy: { previous: 0.9, current: 0.9, p_value: 1, test: 'exact McNemar' },
    categories: [],
    latency_p95: { previous: 2000, current: 2000, p_value: 1, test: 'paired exceedance McNemar' },
    cost_per_case: { previous: 0.01, current: 0.01, p_value: 1, test: "Welch's t" },
    ...overrides,
  };
}

const acc = (previous: number, current: number, p_value: number) => ({ accuracy: { previous, current, p_value, test: 'exact McNemar' } });

describe('detectRegressions', () => {
  it.each<[string, Partial<RegressionEvidence>, Array<[string, string, number]>]>([
    ['nothing changed', {}, []],
    ['a big accuracy drop that is not significant', acc(0.9, 0.8, 0.2), []],
    ['a significant accuracy drop under the warning threshold', acc(0.9, 0.885, 0.01), []],
    ['a significant drop of exactly 2 points (low: step 1, p ≥ alpha/10)', acc(0.878, 0.858, 0.01), [['accuracy', 'low', 2]]],
    ['a drop of 4.6 points with strong evidence (medium)', acc(0.878, 0.832, 0.003), [['accuracy', 'medium', 2]]],
    ['a drop of 5 points with strong evidence (high)', acc(0.9, 0.85, 0.001), [['accuracy', 'high', 5]]],
    ['a drop of 10 points, p 0.01 (high: step 3)', acc(0.9, 0.8, 0.01), [['accuracy', 'high', 10]]],
    ['a drop of 10 points, p 0.001 (critical)', acc(0.9, 0.8, 0.001), [['accuracy', 'critical', 10]]],
    ['a significant improvement', acc(0.8, 0.9, 0.0001), []],
    ['p exactly alpha is not significant', acc(0.9, 0.8, 0.05), []],
    [
      'latency p95 x1.5, significant (low)',
      { latency_p95: { previous: 2000, current: 3000, p_value: 0.01, test: 't' } },
      [['latency_p95', 'low', 1.5]],
    ],
    [
      'latency p95 x2.1, significant (medium)',
      { latency_p95: { previous: 2000, current: 4200, p_value: 0.01, test: 't' } },
      [['latency_p95', 'medium', 2]],
    ],
    [
      'latency p95 x3, strong evidence (critical: step 3 is ×3 for a critical ×2)',
      { latency_p95: { previous: 2000, current: 6000, p_value: 0.001, test: 't' } },
      [['latency_p95', 'critical', 3]],
    ],
    ['latency p95 x3, not significant', { latency_p95: { previous: 2000, current: 6000, p_value: 0.3, test: 't' } }, []],
    ['latency p95 faster', { latency_p95: { previous: 2000, current: 1000, p_value: 0.0001, test: 't' } }, []],
    [
      'cost x1.2, strong evidence (medium)',
      { cost_per_case: { previous: 0.01, current: 0.012, p_value: 0.001, test: 'w' } },
      [['cost_per_case', 'medium', 1.2]],
    ],
    [
      'cost x1.9, strong evidence (high)',
      { cost_per_case: { previous: 0.0102, current: 0.0194, p_value: 1e-9, test: 'w' } },
      [['cost_per_case', 'high', 1.5]],
    ],
    ['cost from a baseline of 0 is not compared', { cost_per_case: { previous: 0, current: 0.01, p_value: 0, test: 'w' } }, []],
    ['no evidence at all', { accuracy: null, latency_p95: null, cost_per_case: null }, []],
  ])('%s', (_label, overrides, expected) => {
    const alerts = detectRegressions(evidence(overrides), DEFAULTS);
    expect(alerts.map((a) => [a.metric, a.severity, a.threshold])).toEqual(expected);
  });

  it('raises a critical accuracy alert from a category whose drop is twice the critical threshold after Holm, even when the overall drop is medium', () => {
    const alerts = detectRegressions(
      evidence({
        paired_cases: 327,
        ...acc(0.8777, 0.8318, 0.0021),
        categories: [
          { category: 'refunds', previous: 0.8936, current: 0.5957, p_value_adjusted: 0.0003 },
          { category: 'orders', previous: 0.9057, current: 0.8868, p_value_adjusted: 1 },
          { category: 'analytics', previous: 0.8235, current: 0.8431, p_value_adjusted: 1 },
        ],
      }),
      DEFAULTS,
    );
    expect(alerts).toEqual([
      {
        metric: 'accuracy',
        severity: 'critical',
        previous: 0.8777,
        current: 0.8318,
        change: -4.59,
        change_unit: 'points',
        threshold: 10,
        p_value: 0.0003,
        test: 'exact McNemar, Holm-adjusted across categories',
        affected_categories: [{ category: 'refunds', previous: 0.8936, current: 0.5957, change: -29.79, p_value_adjusted: 0.0003 }],
        paired_cases: 327,
        message:
          'accuracy 87.8% → 83.2% (-4.6 pts, exact McNemar p = 0.002) on 327 paired cases; refunds -29.8 pts (p < 0.001, Holm); critical: the drop in refunds passed the 10-point threshold',
      },
    ]);
  });

  it('respects per-client thresholds: a 40-point critical threshold leaves the same regression medium', () => {
    const regression = evidence({
      ...acc(0.8777, 0.8318, 0.0021),
      categories: [{ category: 'refunds', previous: 0.8936, current: 0.5957, p_value_adjusted: 0.0003 }],
    });
    const lenient = resolveThresholds({
      thresholds: {
        accuracy_drop_warning_pts: 2,
        accuracy_drop_critical_pts: 40,
        p95_latency_ratio_warning: 1.5,
        p95_latency_ratio_critical: 2,
        cost_per_case_ratio_warning: 1.2,
        cost_per_case_ratio_critical: 1.5,
        criterion_drop_warning: 0.25,
        criterion_drop_critical: 0.5,
        alpha: 0.05,
      },
    });
    expect(detectRegressions(regression, lenient).map((a) => [a.severity, a.threshold, a.p_value])).toEqual([['medium', 2, 0.0021]]);
    const silent = resolveThresholds({ thresholds: { ...lenient, accuracy_drop_warning_pts: 35 } });
    expect(detectRegressions(regression, silent)).toEqual([]);
    const strictAlpha = resolveThresholds({ thresholds: { ...lenient, alpha: 0.001 } });
    expect(detectRegressions(regression, strictAlpha).map((a) => [a.severity, a.p_value])).toEqual([['low', 0.0003]]);
  });

  it('lists significant category drops below the threshold as affected without letting them set the severity', () => {
    const [alert] = detectRegressions(
      evidence({
        ...acc(0.9, 0.87, 0.001),
        categories: [
          { category: 'shipping', previous: 0.9, current: 0.885, p_value_adjusted: 0.01 },
          { category: 'orders', previous: 0.9, current: 0.8, p_value_adjusted: 0.2 },
        ],
      }),
      DEFAULTS,
    );
    expect([alert!.severity, alert!.threshold, alert!.affected_categories.map((c) => c.category)]).toEqual(['medium', 2, ['shipping']]);
  });

  it('takes the latency and cost messages from the evidence', () => {
    const alerts = detectRegressions(
      evidence({ latency_p95: { previous: 2952, current: 6000, p_value: 0.0001, test: 'paired exceedance McNemar' } }),
      DEFAULTS,
    );
    expect(alerts.map((a) => [a.change, a.change_unit, a.message])).toEqual([
      [2.03252, 'ratio', 'p95 latency 2952 ms → 6000 ms (×2.03, paired exceedance McNemar p < 0.001) on 400 paired cases; high: passed ×2'],
    ]);
  });
});
