import { z } from 'zod';

/**
 * Alert severities, lowest first. Which one an alert gets is decided by lib/alerts/severityRules.ts (the size of the
 * change or the SLO violation, and the strength of the evidence); README "Alert severities" has the table.
 */
export const ALERT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const AlertSeveritySchema = z.enum(ALERT_SEVERITIES);
export type AlertSeverity = z.infer<typeof AlertSeveritySchema>;

/** low 1 < medium 2 < high 3 < critical 4 */
export function severityRank(severity: AlertSeverity): number {
  return ALERT_SEVERITIES.indexOf(severity) + 1;
}

/** true when `severity` is `minimum` or above */
export function atLeastSeverity(severity: AlertSeverity, minimum: AlertSeverity): boolean {
  return severityRank(severity) >= severityRank(minimum);
}

/**
 * The severities stored before low/medium/high/critical: `warning` (past the warning threshold) reads as `medium`;
 * `critical` stays `critical` (a stored alert's urgency is never lowered). Stores apply this to what they read and
 * migrate their rows (embedded: at start; Cosmos DB: on read and in severity filters).
 */
export const LEGACY_SEVERITIES: Readonly<Record<string, AlertSeverity>> = { warning: 'medium' };

/** A stored severity in today's terms (legacy values mapped, current ones unchanged). */
export function migrateSeverity(stored: string): AlertSeverity {
  const mapped = LEGACY_SEVERITIES[stored] ?? stored;
  return AlertSeveritySchema.parse(mapped);
}
