import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';
import { EvaluationConfigSchema } from './evaluationConfig.js';
import { RunSampleSchema } from './sampling.js';
import { CatalogPinsSchema } from './catalogPins.js';

/**
 * `degraded`: finished with every case in, but more than `max_not_scored_share` of them not scored (infrastructure
 * failures): its pass rate stands on fewer cases than planned. `stalled`: still open, but the watchdog found it
 * stuck (dead letters, or no progress for a while); `error` says why. It can be resumed (replay) or cancelled.
 */
export const RUN_STATUSES = ['pending', 'running', 'stalled', 'completed', 'degraded', 'failed', 'cancelled', 'timed_out'] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;
export const TERMINAL_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(['completed', 'degraded', 'failed', 'cancelled', 'timed_out']);
/** statuses of a run whose cases may still be processed */
export const OPEN_RUN_STATUSES: readonly RunStatus[] = ['pending', 'running', 'stalled'];

export const TriggerMetadataSchema = z
  .object({
    commit_sha: z
      .string()
      .regex(/^[0-9a-f]{7,64}$/i, 'a git commit sha')
      .optional(),
    pr_number: z.number().int().positive().optional(),
    branch: z.string().optional(),
    repository: z.string().optional(),
    workflow_run_url: z.string().url().optional(),
  })
  .catchall(z.union([z.string(), z.number(), z.boolean()]));

/**
 * What retention did to a run (lib/runs/retention): `cases_deleted_at` is set once its per-case data (scorecards,
 * counted outcomes, audit records, artifacts) is gone; the run and its aggregate statistics stay.
 */
export const RunRetentionSchema = z
  .object({
    /** when the deletion started (set first: a crash mid-delete resumes from here) */
    started_at: z.iso.datetime({ offset: true }),
    /** when every per-case record was deleted; absent while a deletion is under way */
    cases_deleted_at: z.iso.datetime({ offset: true }).optional(),
    /** the retention period that applied, in days */
    retention_days: z.number().int().positive(),
  })
  .strict();
export type RunRetention = z.infer<typeof RunRetentionSchema>;

/** One evaluation of a suite against a target, with the config frozen at start. */
export const RunSchema = z
  .object({
    id: z.string().min(1),
    /** the owning organization, stamped by the organization-scoped stores (absent: `default`) */
    organization: OrganizationFieldSchema,
    client_id: z.string().nullable(),
    suite_id: z.string().min(1),
    target_id: z.string().min(1),
    status: RunStatusSchema,
    config: EvaluationConfigSchema,
    /** `trigger`: started by a client trigger (model version change, catalog version, new cases; `trigger_metadata.trigger` says which) */
    triggered_by: z.enum(['api', 'schedule', 'github', 'cli', 'demo', 'retry', 'trigger']),
    trigger_metadata: TriggerMetadataSchema.default({}),
    baseline_run_id: z.string().nullable(),
    /** for retry-failures runs: the run whose failures are re-run */
    parent_run_id: z.string().nullable().default(null),
    total_cases: z.number().int().nonnegative(),
    shard_count: z.number().int().nonnegative(),
    created_at: z.iso.datetime({ offset: true }),
    started_at: z.iso.datetime({ offset: true }).nullable(),
    completed_at: z.iso.datetime({ offset: true }).nullable(),
    deadline_at: z.iso.datetime({ offset: true }),
    error: z.string().nullable().default(null),
    /** notes the platform adds (e.g. a model version change seen in results) */
    notes: z.array(z.string()).default([]),
    /** the published suite version the run evaluates (its case ids and bodies); absent or null: the live suite */
    suite_version: z.number().int().positive().nullable().optional(),
    /** a sampled run: the population, the sample per stratum (set when the run is planned); absent: every case */
    sample: RunSampleSchema.optional(),
    /** tool-catalog versions the run is pinned to by catalog name (from its suite or its trigger): offered to the model, validated in stage 1 */
    tool_catalogs: CatalogPinsSchema.optional(),
    /** set once retention deleted the run's scorecards, audit records and artifacts; its statistics are kept */
    retention: RunRetentionSchema.optional(),
  })
  .strict();
export type Run = z.infer<typeof RunSchema>;
