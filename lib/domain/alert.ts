import { z } from 'zod';
import { AlertSeveritySchema } from './alertSeverity.js';
import { OrganizationFieldSchema } from './organization.js';

/**
 * `criterion_score`: one rubric criterion of the semantic judge (the alert's `criterion`), mean score on its 1-5 scale;
 * `latency_slo`: a category's p95 latency above its client's SLO (the alert's `category`; no baseline);
 * `budget_spent`: the organization's month-to-date spending (USD) against its monthly budget (lib/tenancy budgets)
 */
export const ALERT_METRICS = ['accuracy', 'latency_p95', 'cost_per_case', 'criterion_score', 'latency_slo', 'budget_spent'] as const;
export const AlertMetricSchema = z.enum(ALERT_METRICS);
export type AlertMetric = z.infer<typeof AlertMetricSchema>;

export { AlertSeveritySchema, type AlertSeverity } from './alertSeverity.js';

export const AlertStatusSchema = z.enum(['open', 'acknowledged']);

/** A category whose own change contributes to the regression (p-values Holm-adjusted across categories). */
export const AffectedCategorySchema = z
  .object({
    category: z.string(),
    previous: z.number(),
    current: z.number(),
    change: z.number(),
    p_value_adjusted: z.number().min(0).max(1),
  })
  .strict();

export const AlertDeliverySchema = z
  .object({
    status: z.enum(['none', 'pending', 'delivered', 'failed']),
    attempts: z.number().int().nonnegative(),
    last_error: z.string().nullable(),
    delivered_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .strict();

/**
 * A regression of a run against its baseline that passed both the client's threshold and a significance test.
 * The id is deterministic (`${run_id}:${metric}`), so the live alert raised mid-run and the final one are the
 * same document: upserted, never duplicated.
 */
export const AlertSchema = z
  .object({
    id: z.string().min(1),
    /** the owning organization, stamped by the organization-scoped stores (absent: `default`) */
    organization: OrganizationFieldSchema,
    run_id: z.string().min(1),
    /** the run compared with; null for a `latency_slo` alert (an SLO is checked against the run alone) */
    baseline_run_id: z.string().min(1).nullable(),
    client_id: z.string().nullable(),
    suite_id: z.string().min(1),
    target_id: z.string().min(1),
    metric: AlertMetricSchema,
    /** the rubric criterion of a `criterion_score` alert (absent for the other metrics) */
    criterion: z.string().optional(),
    /** the category of a `latency_slo` alert (`*`: every category) */
    category: z.string().optional(),
    severity: AlertSeveritySchema,
    /** baseline value: pass rate in [0,1] for accuracy, milliseconds for latency_p95, USD for cost_per_case, mean 1-5 score for criterion_score; the SLO's p95 target (ms) for latency_slo */
    previous: z.number(),
    current: z.number(),
    /** accuracy: current - previous in percentage points (negative = drop); criterion_score: current - previous on the 1-5 scale (`score_points`); others (latency_slo: p95 / target): current / previous */
    change: z.number(),
    change_unit: z.enum(['points', 'ratio', 'score_points']),
    /** the threshold that was crossed, in change_unit */
    threshold: z.number(),
    p_value: z.number().min(0).max(1),
    /** the statistical test behind p_value, e.g. "exact McNemar" or "paired bootstrap" */
    test: z.string(),
    affected_categories: z.array(AffectedCategorySchema).default([]),
    message: z.string(),
    /** raised from a partial run by the change-feed handler (false once the finished run confirms it) */
    live: z.boolean(),
    /** cases both runs had scored when the alert was computed (latency_slo: the category's scored cases) */
    paired_cases: z.number().int().nonnegative(),
    status: AlertStatusSchema,
    created_at: z.iso.datetime({ offset: true }),
    updated_at: z.iso.datetime({ offset: true }),
    acknowledged_at: z.iso.datetime({ offset: true }).nullable(),
    acknowledged_by: z.string().nullable(),
    delivery: AlertDeliverySchema,
  })
  .strict();
export type Alert = z.infer<typeof AlertSchema>;

/**
 * `<run>:<metric>`, `<run>:criterion_score:<criterion>` for a criterion's alert (one document per criterion) and
 * `<run>:latency_slo:<category>` for an SLO's.
 */
export function alertId(runId: string, metric: AlertMetric, criterion?: string): string {
  return criterion === undefined ? `${runId}:${metric}` : `${runId}:${metric}:${criterion}`;
}
