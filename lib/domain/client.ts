import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';
import { EvaluationConfigOverridesSchema } from './evaluationConfig.js';
import { SampleSpecSchema } from './sampling.js';
import { ClientTriggersSchema } from './clientTriggers.js';
import { AlertSeveritySchema } from './alertSeverity.js';
import { RunPrioritySchema } from './runPriority.js';
import { LatencySlosSchema } from './latencySlo.js';

/** Regression thresholds per client (defaults from the product brief). */
export const AlertThresholdsSchema = z
  .object({
    accuracy_drop_warning_pts: z.number().nonnegative().default(2),
    accuracy_drop_critical_pts: z.number().nonnegative().default(5),
    p95_latency_ratio_warning: z.number().min(1).default(1.5),
    p95_latency_ratio_critical: z.number().min(1).default(2),
    cost_per_case_ratio_warning: z.number().min(1).default(1.2),
    cost_per_case_ratio_critical: z.number().min(1).default(1.5),
    /** a rubric criterion's mean score drop (1-5 scale) that warns / is critical */
    criterion_drop_warning: z.number().nonnegative().default(0.25),
    criterion_drop_critical: z.number().nonnegative().default(0.5),
    /** significance level for "statistically real" */
    alpha: z.number().gt(0).lt(1).default(0.05),
  })
  .strict();
export type AlertThresholds = z.infer<typeof AlertThresholdsSchema>;

export const NotifyTargetSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('webhook'),
      url: z.string().url(),
      format: z.enum(['slack', 'teams', 'json']).default('json'),
      /** only alerts of this severity or above go to this webhook (default: every alert) */
      min_severity: AlertSeveritySchema.optional(),
    })
    .strict(),
  z.object({ kind: z.literal('email'), address: z.string().email() }).strict(),
]);

/** One schedule of a client: a six-field NCRONTAB expression and, optionally, the sample its runs take. */
export const ClientScheduleSchema = z
  .object({
    cron: z.string().min(1),
    sample: SampleSpecSchema.nullable().optional(),
    /** a name for people (e.g. "nightly sample") */
    label: z.string().max(100).optional(),
    /** the queue priority of its runs (e.g. `low` for a nightly full run); absent: the client's config, else normal */
    priority: RunPrioritySchema.optional(),
  })
  .strict();
export type ClientSchedule = z.infer<typeof ClientScheduleSchema>;

/** A team or tenant: which suites it runs against which target, on what schedule, who hears about it. */
export const ClientSchema = z
  .object({
    id: z.string().min(1),
    /** the owning organization, stamped by the organization-scoped stores (absent: `default`) */
    organization: OrganizationFieldSchema,
    name: z.string().min(1),
    suite_ids: z.array(z.string().min(1)).min(1),
    target_id: z.string().min(1),
    /** six-field NCRONTAB (second minute hour day month day-of-week), e.g. "0 0 2 * * *" = 02:00 daily (UTC) */
    schedule_cron: z.string().optional(),
    /**
     * further schedules, each with its own sample: e.g. `[{cron: "0 0 2 * * 0", sample: null}, {cron: "0 0 2 * * *",
     * sample: {rate: 0.1, method: "stratified", stratify_by: "category"}}]` = a full run Sundays, a 10% sample
     * other nights. `sample` null: every case (overrides a sample in config_overrides); absent: the client's config.
     * Entries (after schedule_cron) that fire at the same minute start one run: the first listed.
     */
    schedules: z.array(ClientScheduleSchema).optional(),
    notify: z.array(NotifyTargetSchema).default([]),
    config_overrides: EvaluationConfigOverridesSchema.optional(),
    thresholds: AlertThresholdsSchema.optional(),
    /** runs started by events besides the schedules (model version change, new catalog version, new cases) */
    triggers: ClientTriggersSchema.optional(),
    /** latency objectives per category (p95 under N ms, judged on at least min_cases): runs report compliance, violations alert */
    latency_slos: LatencySlosSchema.optional(),
    created_at: z.iso.datetime({ offset: true }),
    updated_at: z.iso.datetime({ offset: true }),
  })
  .strict();
export type Client = z.infer<typeof ClientSchema>;
