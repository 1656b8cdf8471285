import { LogHistogram, NO_CATEGORY, ALL_CATEGORIES, type LatencySlo, type SloCompliance } from '../domain/index.js';
import { binomialCdf } from '../statistics/index.js';
import { severityFor, sloStep } from './severityRules.js';

/** A p95 objective: under the null hypothesis "the true p95 meets the target", at most 5% of cases are slower. */
export const SLO_QUANTILE = 0.95;
export const SLO_TEST = 'one-sided exact binomial on the cases above the target (H0: at most 5% above)';

/** What an SLO reads of a scored case. */
export interface SloOutcome {
  category: string | null;
  latency_ms: number;
}

/**
 * A run's compliance with its client's latency SLOs, folded one scored case at a time (memory: one log histogram per
 * SLO, never the latencies). Per SLO: the cases of its category (`*` = all; no category = `(none)`), their p95 (the
 * platform's one definition: the log histogram's lower-rank order statistic, lib/domain/stats), the cases slower than
 * the target, and the p-value of a one-sided exact binomial test of "at most 5% are slower" (a p95 at or under the
 * target): P(X ≥ above | n, 0.05). The status (lib/domain/latencySlo.ts): too_few_cases below `min_cases`; met when
 * the p95 is at or under the target; violated when above it and p < alpha (enough cases to say so); else
 * not_significant. A violation's severity: the margin p95 / target and the evidence (severityRules.ts).
 */
export class SloComplianceFold {
  private readonly state: Array<{ slo: LatencySlo; histogram: LogHistogram; above: number }>;

  constructor(
    slos: readonly LatencySlo[],
    private readonly alpha: number,
  ) {
    this.state = slos.map((slo) => ({ slo, histogram: LogHistogram.empty(), above: 0 }));
  }

  add(outcome: SloOutcome): void {
    const category = outcome.category ?? NO_CATEGORY;
    for (const s of this.state) {
      if (s.slo.category !== ALL_CATEGORIES && s.slo.category !== category) continue;
      s.histogram.add(outcome.latency_ms);
      if (outcome.latency_ms > s.slo.p95_ms) s.above++;
    }
  }

  result(): SloCompliance[] {
    return this.state.map(({ slo, histogram, above }) => {
      const cases = histogram.count();
      const p95 = histogram.quantiles([SLO_QUANTILE])[0] ?? null;
      const pValue = cases > 0 ? (above === 0 ? 1 : clamp01(1 - binomialCdf(above - 1, cases, 1 - SLO_QUANTILE))) : null;
      const base = { category: slo.category, target_p95_ms: slo.p95_ms, min_cases: slo.min_cases, cases, p95_ms: p95, above_target: above };
      if (cases < slo.min_cases) return { ...base, p_value: pValue, status: 'too_few_cases' as const };
      if (p95 === null || p95 <= slo.p95_ms) return { ...base, p_value: pValue, status: 'met' as const };
      const size = sloStep(p95 / slo.p95_ms);
      if (pValue === null || !(pValue < this.alpha) || !size) return { ...base, p_value: pValue, status: 'not_significant' as const };
      return { ...base, p_value: pValue, status: 'violated' as const, severity: severityFor(size.step, pValue, this.alpha) };
    });
  }
}

/** The compliance of `outcomes` (scored cases only) with `slos` (see SloComplianceFold). */
export function sloComplianceOf(slos: readonly LatencySlo[], outcomes: Iterable<SloOutcome>, alpha: number): SloCompliance[] {
  const fold = new SloComplianceFold(slos, alpha);
  for (const o of outcomes) fold.add(o);
  return fold.result();
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
