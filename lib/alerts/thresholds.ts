import { AlertThresholdsSchema, type AlertSeverity, type AlertThresholds, type Client } from '../domain/index.js';

/** Float slack so that a change computed from fractions (e.g. 0.878 - 0.858 = 2.0000000000000018 pts) compares as written. */
const EPSILON = 1e-9;

/** A client's thresholds with the defaults filled in (no client, or no thresholds: the product defaults). */
export function resolveThresholds(client?: Pick<Client, 'thresholds'> | null): AlertThresholds {
  return AlertThresholdsSchema.parse(client?.thresholds ?? {});
}

export interface SeverityOutcome {
  severity: AlertSeverity;
  /** the threshold crossed, in the change's unit (points or ratio) */
  threshold: number;
}

/** The severity of an accuracy drop of `dropPts` percentage points (positive = worse), or undefined below the warning threshold. */
export function accuracySeverity(dropPts: number, thresholds: AlertThresholds): SeverityOutcome | undefined {
  if (dropPts + EPSILON >= thresholds.accuracy_drop_critical_pts)
    return { severity: 'critical', threshold: thresholds.accuracy_drop_critical_pts };
  if (dropPts + EPSILON >= thresholds.accuracy_drop_warning_pts)
    return { severity: 'warning', threshold: thresholds.accuracy_drop_warning_pts };
  return undefined;
}

/** The severity of a ratio current / previous (latency p95, cost per case; above 1 = worse), or undefined below `warning`. */
export function ratioSeverity(ratio: number, warning: number, critical: number): SeverityOutcome | undefined {
  if (!Number.isFinite(ratio)) return undefined;
  if (ratio + EPSILON >= critical) return { severity: 'critical', threshold: critical };
  if (ratio + EPSILON >= warning) return { severity: 'warning', threshold: warning };
  return undefined;
}

const RANK: Record<AlertSeverity, number> = { warning: 1, critical: 2 };

/** warning < critical */
export function severityRank(severity: AlertSeverity): number {
  return RANK[severity];
}
