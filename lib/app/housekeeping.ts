import { cleanUpEvaluateJobs, DEFAULT_EVALUATE_JOB_RETENTION_DAYS, type JobCleanupReport } from '../api/index.js';
import { organizationOf, type Run } from '../domain/index.js';
import type { Services } from '../ports/index.js';
import { applyRetention, type RetentionReport } from '../runs/index.js';

/** The housekeeping timer's schedule (six-field NCRONTAB): every hour at minute 17. */
export const HOUSEKEEPING_SCHEDULE = '0 17 * * * *';

export interface HousekeepingSettings {
  /** EVALP_RETENTION_DAYS: the platform retention period; undefined keeps data forever */
  retentionDays?: number | undefined;
  /** EVALP_EVALUATE_JOB_RETENTION_DAYS (default 30) */
  evaluateJobRetentionDays: number;
  /**
   * The per-organization retention override: the days for a run's organization, or undefined for the platform's.
   * Default: the organization's `retention_days` (PUT /api/v1/organizations/{id}/retention).
   */
  retentionOverride?: (run: Run) => Promise<number | null | undefined> | number | null | undefined;
}

const positive = (text: string | undefined): number | undefined => {
  const n = Number(text?.trim());
  return text?.trim() && Number.isInteger(n) && n > 0 ? n : undefined;
};

/** The housekeeping settings from app settings (validated by the startup check; a bad value here counts as unset). */
export function housekeepingSettingsFromEnv(env: Readonly<Record<string, string | undefined>>): HousekeepingSettings {
  return {
    retentionDays: positive(env.EVALP_RETENTION_DAYS),
    evaluateJobRetentionDays: positive(env.EVALP_EVALUATE_JOB_RETENTION_DAYS) ?? DEFAULT_EVALUATE_JOB_RETENTION_DAYS,
  };
}

/**
 * One housekeeping pass (functions/timers/housekeeping.ts): old /api/evaluate jobs are deleted first (so retention
 * never spends its budget on a job about to go), then retention deletes the per-case data of runs past their
 * period. Both are idempotent and resumable: a pass killed anywhere is finished by the next one.
 */
export async function runHousekeeping(
  services: Pick<Services, 'stores' | 'clock'>,
  settings: HousekeepingSettings,
): Promise<{ jobs: JobCleanupReport; retention: RetentionReport }> {
  const jobs = await cleanUpEvaluateJobs(services, { days: settings.evaluateJobRetentionDays });
  const overrideFor = settings.retentionOverride ?? organizationRetention(services.stores);
  const retention = await applyRetention(services, { platformDays: settings.retentionDays, overrideFor });
  return { jobs, retention };
}

/**
 * A run's retention from its organization (`retention_days`), read once per organization per pass; undefined when
 * the organization sets none (or is not stored: `default` before anyone configured it), so the platform's applies.
 */
export function organizationRetention(stores: Pick<Services['stores'], 'organizations'>): (run: Run) => Promise<number | undefined> {
  const days = new Map<string, Promise<number | undefined>>();
  return (run) => {
    const id = organizationOf(run);
    let found = days.get(id);
    if (!found) days.set(id, (found = stores.organizations.get(id).then((org) => org?.retention_days)));
    return found;
  };
}
