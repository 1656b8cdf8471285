import { OrganizationFieldSchema } from './organization.js';
import { z } from 'zod';

/**
 * What is left of an /api/evaluate job after clean-up deleted it (its run, scorecards, statistics, suite, cases and,
 * when no other job uses it, its target): enough for `GET /api/evaluate/{job_id}` to answer 410 Gone saying when
 * and why. Kept in the entity store `cleanedJobs` (a few hundred bytes per job).
 */
export const CleanedJobSchema = z
  .object({
    /** the job id (= its run id) */
    id: z.string().min(1),
    /** the organization that owns it (lib/tenancy; absent: `default`) */
    organization: OrganizationFieldSchema,
    submitted_at: z.iso.datetime({ offset: true }),
    completed_at: z.iso.datetime({ offset: true }).nullable(),
    /** when the clean-up started deleting (written first) */
    cleaned_at: z.iso.datetime({ offset: true }),
    /** the retention of evaluation jobs that applied, in days */
    retention_days: z.number().int().positive(),
  })
  .strict();
export type CleanedJob = z.infer<typeof CleanedJobSchema>;
