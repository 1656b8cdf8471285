import { ALERT_SEVERITIES, type AlertSeverity } from '../domain/index.js';

/**
 * The rules that decide an alert's severity (README "Alert severities"). Two things decide it:
 * - the **size step** of the change: 1 = past the alert threshold (the client's `*_warning` threshold; for an SLO,
 *   p95 above the target), 2 = past the critical threshold (SLO: p95 ≥ 1.5 × target), 3 = at least twice as far past
 *   the baseline as the critical threshold (accuracy: a drop ≥ 2 × the critical points; ratios: ratio - 1 ≥
 *   2 × (critical - 1), e.g. p95 ×3 for a critical ×2; SLO: p95 ≥ 2 × target);
 * - the **evidence**: strong when p < alpha / 10 (an alert always needs p < alpha).
 *
 * | size step \ evidence | alpha/10 ≤ p < alpha | p < alpha/10 |
 * |---|---|---|
 * | 1 | low | medium |
 * | 2 | medium | high |
 * | 3 | high | critical |
 */
export type SizeStep = 1 | 2 | 3;

/** p below alpha / STRONG_EVIDENCE_FACTOR is strong evidence (one severity up) */
export const STRONG_EVIDENCE_FACTOR = 10;

/** The severity of a change of size `step` with p-value `pValue` (the caller has checked p < alpha). */
export function severityFor(step: SizeStep, pValue: number, alpha: number): AlertSeverity {
  const strong = pValue < alpha / STRONG_EVIDENCE_FACTOR;
  return ALERT_SEVERITIES[step - 1 + (strong ? 1 : 0)]!;
}

export interface SizeOutcome {
  step: SizeStep;
  /** the threshold of that step, in the change's unit (points, ratio or score points) */
  threshold: number;
}

/** Float slack so that a change computed from fractions (e.g. 0.878 - 0.858 = 2.0000000000000018 pts) compares as written. */
const EPSILON = 1e-9;

/** A drop (positive = worse; accuracy points, criterion score points) against its warning and critical thresholds. */
export function dropStep(drop: number, warning: number, critical: number): SizeOutcome | undefined {
  if (!Number.isFinite(drop)) return undefined;
  if (drop + EPSILON >= 2 * critical && critical > 0) return { step: 3, threshold: 2 * critical };
  if (drop + EPSILON >= critical) return { step: 2, threshold: critical };
  if (drop + EPSILON >= warning) return { step: 1, threshold: warning };
  return undefined;
}

/** A ratio current / previous (above 1 = worse: latency p95, cost per case) against its warning and critical ratios. */
export function ratioStep(ratio: number, warning: number, critical: number): SizeOutcome | undefined {
  if (!Number.isFinite(ratio)) return undefined;
  const severe = 1 + 2 * (critical - 1);
  if (ratio + EPSILON >= severe && critical > 1) return { step: 3, threshold: severe };
  if (ratio + EPSILON >= critical) return { step: 2, threshold: critical };
  if (ratio + EPSILON >= warning) return { step: 1, threshold: warning };
  return undefined;
}

/** SLO violation margins: p95 / target above 1, at least 1.5, at least 2. */
export const SLO_MARGINS = { medium: 1.5, severe: 2 } as const;

/** An SLO's violation margin p95 / target (above 1 = violated). */
export function sloStep(ratio: number): SizeOutcome | undefined {
  if (!Number.isFinite(ratio) || !(ratio > 1)) return undefined;
  if (ratio + EPSILON >= SLO_MARGINS.severe) return { step: 3, threshold: SLO_MARGINS.severe };
  if (ratio + EPSILON >= SLO_MARGINS.medium) return { step: 2, threshold: SLO_MARGINS.medium };
  return { step: 1, threshold: 1 };
}
