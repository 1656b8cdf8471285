import { z } from 'zod';
import { EvaluationConfigSchema } from './evaluationConfig.js';

export const RUN_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled', 'timed_out'] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;
export const TERMINAL_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'cancelled', 'timed_out']);

export const TriggerMetadataSchema = z
  .object({
    commit_sha: z.string().regex(/^[0-9a-f]{7,64}$/i, 'a git commit sha').optional(),
    pr_number: z.number().int().positive().optional(),
    branch: z.string().optional(),
    repository: z.string().optional(),
    workflow_run_url: z.string().url().optional(),
  })
  .catchall(z.union([z.string(), z.number(), z.boolean()]));

/** One evaluation of a suite against a target, with the config frozen at start. */
export const RunSchema = z
  .object({
    id: z.string().min(1),
    client_id: z.string().nullable(),
    suite_id: z.string().min(1),
    target_id: z.string().min(1),
    status: RunStatusSchema,
    config: EvaluationConfigSchema,
    triggered_by: z.enum(['api', 'schedule', 'github', 'cli', 'demo', 'retry']),
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
  })
  .strict();
export type Run = z.infer<typeof RunSchema>;
