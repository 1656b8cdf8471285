import { z } from 'zod';

/** The organization that single-tenant data (written before organizations existed) belongs to. */
export const DEFAULT_ORGANIZATION = 'default';

/** An organization id: lower-case letters, digits and `-`, 1-63 characters, starting with a letter or digit. */
export const OrganizationIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'an organization id is 1-63 characters of a-z, 0-9 and "-", starting with a letter or digit');
export type OrganizationId = z.infer<typeof OrganizationIdSchema>;

/**
 * The field every organization-owned entity carries (gold cases, suites, catalogs, targets, clients, runs, alerts,
 * experiments, calibrations, pairwise verdicts, audit records, API keys). Absent on data written before
 * organizations existed: it then reads as `default` (`organizationOf`). Callers never set it: the organization-scoped
 * stores (lib/tenancy) stamp it from the caller's organization.
 */
export const OrganizationFieldSchema = OrganizationIdSchema.optional();

/** A monthly spending limit on judge and target calls (USD), with the share that raises the early alert. */
export const OrganizationBudgetSchema = z
  .object({
    /** USD per calendar month (UTC) for judge and target calls, as the scorecards estimate them */
    monthly_usd: z.number().positive(),
  })
  .strict();
export type OrganizationBudget = z.infer<typeof OrganizationBudgetSchema>;

/** A tenant: it owns its gold set, suites, targets, clients, runs, keys and alerts; nobody else sees them. */
export const OrganizationSchema = z
  .object({
    id: OrganizationIdSchema,
    name: z.string().min(1).max(200),
    created_at: z.iso.datetime({ offset: true }),
    /** absent: no spending limit */
    budget: OrganizationBudgetSchema.optional(),
    /**
     * days after a run finishes when its scorecards, counted outcomes and shards are deleted (statistics kept);
     * absent: the platform's EVALP_RETENTION_DAYS
     */
    retention_days: z.number().int().positive().max(36_500).optional(),
  })
  .strict();
export type Organization = z.infer<typeof OrganizationSchema>;

/** The organization an entity belongs to: its field, else `default` (data from before organizations). */
export function organizationOf(entity: { organization?: string | undefined } | undefined | null): string {
  return entity?.organization ?? DEFAULT_ORGANIZATION;
}
