import { describe, expect, it } from 'vitest';
import { LatencySloSchema, latencyPercentile } from '../domain/index.js';
import { binomialCdf } from '../statistics/index.js';
import { sloComplianceOf } from './sloCompliance.js';

const slo = (category: string, p95_ms: number, min_cases?: number) =>
  LatencySloSchema.parse({ category, p95_ms, ...(min_cases !== undefined ? { min_cases } : {}) });
/** n cases of a category: latencies 1..n ms scaled by `scale` */
const cases = (category: string | null, n: number, scale = 1) =>
  Array.from({ length: n }, (_, i) => ({ category, latency_ms: (i + 1) * scale }));

describe('latency SLO compliance', () => {
  it('hand-made latencies: p95 by the platform definition, cases above, one-sided binomial p, status and severity', () => {
    // search: 100 cases at 1..100 ms: p95 = the 95th value (lower rank floor(0.95·99) = 94 → 95 ms), 20 cases above 80 ms
    // orders: 40 cases at 10..400 ms against 1000 ms: met
    const outcomes = [...cases('search', 100), ...cases('orders', 40, 10)];
    const [search, orders, all, missing] = sloComplianceOf(
      [slo('search', 80), slo('orders', 1000), slo('*', 50, 150), slo('refunds', 100)],
      outcomes,
      0.05,
    );
    const p = 1 - binomialCdf(19, 100, 0.05); // P(X ≥ 20 | n = 100, 5%)
    expect(search).toEqual({
      category: 'search',
      target_p95_ms: 80,
      min_cases: 20,
      cases: 100,
      p95_ms: latencyPercentile(
        cases('search', 100).map((c) => c.latency_ms),
        0.95,
      ),
      above_target: 20,
      p_value: p,
      status: 'violated',
      // margin 95/80 = 1.19 (step 1), p ≈ 1e-7 (strong): medium
      severity: 'medium',
    });
    expect(search!.p95_ms).toBeCloseTo(95, -0.5);
    expect(p).toBeLessThan(1e-6);
    expect(orders).toMatchObject({ cases: 40, above_target: 0, p_value: 1, status: 'met' });
    expect(all).toMatchObject({ category: '*', cases: 140, status: 'too_few_cases', min_cases: 150 });
    expect(missing).toEqual({
      category: 'refunds',
      target_p95_ms: 100,
      min_cases: 20,
      cases: 0,
      p95_ms: null,
      above_target: 0,
      p_value: null,
      status: 'too_few_cases',
    });
  });

  it('a p95 just above the target on few slow cases is not significant', () => {
    // 20 cases, 2 above the target (10%): p95 above it, but P(X ≥ 2 | 20, 5%) ≈ 0.26
    const outcomes = [...cases('x', 18), { category: 'x', latency_ms: 500 }, { category: 'x', latency_ms: 600 }];
    const [c] = sloComplianceOf([slo('x', 100)], outcomes, 0.05);
    expect(c).toMatchObject({ above_target: 2, status: 'not_significant' });
    expect(c!.p_value).toBeCloseTo(1 - binomialCdf(1, 20, 0.05), 12);
    expect(c!.p_value!).toBeGreaterThan(0.05);
  });

  it.each([
    // 60 cases, 15 slow at 2.5× the target: margin ≥ 2 (step 3), strong evidence: critical
    [250, 15, 'critical'],
    // 15 slow at 1.6×: step 2, strong: high
    [160, 15, 'high'],
    // 6 slow at 1.6× (10%): step 2, p ≈ 0.08: not significant at 0.05
    [160, 6, undefined],
  ])('%i ms on %i of 60 cases against 100 ms: %s', (slow, count, severity) => {
    const outcomes = [
      ...Array.from({ length: 60 - count }, () => ({ category: 'x', latency_ms: 50 })),
      ...Array.from({ length: count }, () => ({ category: 'x', latency_ms: slow })),
    ];
    const [c] = sloComplianceOf([slo('x', 100)], outcomes, 0.05);
    expect(c!.severity).toBe(severity);
  });

  it('cases without a category count under (none)', () => {
    expect(sloComplianceOf([slo('(none)', 10, 1)], cases(null, 5), 0.05)[0]).toMatchObject({ cases: 5, status: 'met' });
  });
});
