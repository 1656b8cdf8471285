import { z } from 'zod';
import { AlertSeveritySchema } from './alertSeverity.js';

/** `*` in an SLO's category: every scored case of the run. Cases without a category are `(none)`. */
export const ALL_CATEGORIES = '*';
/** the minimum case count when an SLO names none */
export const DEFAULT_SLO_MIN_CASES = 20;

/**
 * A client's latency objective for one category: the p95 target latency (lib/domain/stats "Latency percentiles": the
 * platform's one definition) at most `p95_ms`, judged only on at least `min_cases` scored cases.
 */
export const LatencySloSchema = z
  .object({
    category: z.string().min(1),
    p95_ms: z.number().positive(),
    min_cases: z.number().int().min(1).default(DEFAULT_SLO_MIN_CASES),
  })
  .strict();
export type LatencySlo = z.infer<typeof LatencySloSchema>;

export const LatencySlosSchema = z.array(LatencySloSchema).superRefine((slos, ctx) => {
  const seen = new Set<string>();
  slos.forEach((slo, i) => {
    if (seen.has(slo.category)) ctx.addIssue({ code: 'custom', path: [i, 'category'], message: `a second SLO for "${slo.category}"` });
    seen.add(slo.category);
  });
});

/**
 * - `met`: p95 at or under the target;
 * - `violated`: p95 above it with enough evidence (one-sided exact binomial test p < the client's alpha; alerts);
 * - `not_significant`: p95 above it, but too few cases above the target to say the true p95 is;
 * - `too_few_cases`: fewer scored cases than `min_cases` (nothing is decided).
 */
export const SLO_STATUSES = ['met', 'violated', 'not_significant', 'too_few_cases'] as const;

/** A run's compliance with one SLO (GET /runs/{id} `slo_compliance`, reports, `evalp status`). */
export const SloComplianceSchema = z
  .object({
    category: z.string(),
    target_p95_ms: z.number(),
    min_cases: z.number().int(),
    /** scored cases of the category (every scored trial; not-scored cases never count) */
    cases: z.number().int().nonnegative(),
    /** the category's p95 (the platform's definition); null without cases */
    p95_ms: z.number().nullable(),
    /** cases slower than the target */
    above_target: z.number().int().nonnegative(),
    /** one-sided exact binomial: P(at least `above_target` of `cases` above the target if only 5% were); null without cases */
    p_value: z.number().min(0).max(1).nullable(),
    status: z.enum(SLO_STATUSES),
    /** the alert's severity when violated (lib/alerts/severityRules.ts) */
    severity: AlertSeveritySchema.optional(),
  })
  .strict();
export type SloCompliance = z.infer<typeof SloComplianceSchema>;
