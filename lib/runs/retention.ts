import { TERMINAL_RUN_STATUSES, type Run } from '../domain/index.js';
import type { Clock, Stores } from '../ports/index.js';

const DAY_MS = 86_400_000;

/**
 * How long a finished run keeps its per-case data. `platformDays` is the platform setting (EVALP_RETENTION_DAYS;
 * undefined keeps data forever). `overrideFor` is the per-organization hook: given a run, the retention of the
 * organization that owns it (tenancy plugs its setting in here), or undefined/null for the platform's.
 * `minimumDays` bounds the scan: no run created within that many days is visited (default: `platformDays` when no
 * override hook is given, else 1).
 */
export interface RetentionPolicy {
  platformDays?: number | undefined;
  overrideFor?: ((run: Run) => Promise<number | null | undefined> | number | null | undefined) | undefined;
  minimumDays?: number;
}

export interface RetentionOptions {
  /** items deleted per store call (default 1,000) */
  batchSize?: number;
  /** stop after deleting this many items in one pass; the next pass continues (default 100,000) */
  maxDeletes?: number;
}

export interface RetentionReport {
  /** runs whose cases this pass finished deleting */
  runs_expired: string[];
  /** a run left half-way because the pass reached maxDeletes (the next pass resumes it) */
  resumable: string | null;
  scorecards_deleted: number;
  outcomes_deleted: number;
  audit_records_deleted: number;
}

/** The note a run past retention carries (reports and the run view show it). */
export function retentionNote(at: string, days: number): string {
  return `scorecards, audit records and artifacts deleted by retention on ${at} (retention ${days} day${days === 1 ? '' : 's'}); run statistics are kept`;
}

/** The retention period of a run under a policy; undefined: kept forever. */
export async function retentionDaysOf(run: Run, policy: RetentionPolicy): Promise<number | undefined> {
  const override = policy.overrideFor ? await policy.overrideFor(run) : undefined;
  const days = override ?? policy.platformDays;
  return days !== undefined && Number.isFinite(days) && days > 0 ? days : undefined;
}

/**
 * One housekeeping pass of retention. For every finished run whose retention period has passed since it finished
 * (`completed_at`, else `created_at`): mark it (`retention.started_at`), delete its scorecards and counted outcomes
 * in batches and its shards, then set `retention.cases_deleted_at` and the note. The run and its statistics
 * (aggregates, trends) are kept. Then audit records older than the platform period are deleted.
 *
 * Crash-safe and idempotent: every step deletes only what is there; a run is marked done last, so a pass killed
 * mid-delete leaves the run started-not-done and the next pass finishes it. Nothing that is kept is written except
 * the run's `retention` field and note (one ETag-free patch that merges).
 */
export async function applyRetention(
  deps: { stores: Stores; clock: Clock },
  policy: RetentionPolicy,
  options: RetentionOptions = {},
): Promise<RetentionReport> {
  const { stores, clock } = deps;
  const report: RetentionReport = {
    runs_expired: [],
    resumable: null,
    scorecards_deleted: 0,
    outcomes_deleted: 0,
    audit_records_deleted: 0,
  };
  if (policy.platformDays === undefined && !policy.overrideFor) return report;
  const batch = options.batchSize ?? 1_000;
  let budget = options.maxDeletes ?? 100_000;
  const now = clock.now();
  const minimumDays = policy.minimumDays ?? (policy.overrideFor ? 1 : (policy.platformDays ?? 1));
  const scanBefore = new Date(now.getTime() - minimumDays * DAY_MS).toISOString();

  for (let offset = 0; ;) {
    const page = await stores.runs.listRuns({ created_before: scanBefore }, { offset, limit: 100 });
    for (const run of page.items) {
      if (!TERMINAL_RUN_STATUSES.has(run.status) || run.retention?.cases_deleted_at) continue;
      const days = await retentionDaysOf(run, policy);
      if (days === undefined) continue;
      const finished = Date.parse(run.completed_at ?? run.created_at);
      if (finished + days * DAY_MS > now.getTime()) continue;
      // marked first: a pass killed from here on leaves a run that the next pass recognises and finishes
      const started_at = run.retention?.started_at ?? now.toISOString();
      if (!run.retention) await stores.runs.updateRun(run.id, { retention: { started_at, retention_days: days } });
      const steps: Array<['scorecards_deleted' | 'outcomes_deleted', (limit: number) => Promise<number>]> = [
        ['scorecards_deleted', (limit) => stores.scorecards.deleteScorecards(run.id, { limit })],
        ['outcomes_deleted', (limit) => stores.runStats.deleteOutcomes(run.id, { limit })],
      ];
      for (const [counter, remove] of steps) {
        for (;;) {
          if (budget <= 0) {
            report.resumable = run.id;
            return withAudit(report);
          }
          const deleted = await remove(Math.min(batch, budget));
          report[counter] += deleted;
          budget -= deleted;
          if (deleted === 0) break;
        }
      }
      await stores.runs.deleteShards(run.id);
      const at = now.toISOString();
      const current = (await stores.runs.getRun(run.id)) ?? run;
      const note = retentionNote(at, days);
      await stores.runs.updateRun(run.id, {
        retention: { started_at, cases_deleted_at: at, retention_days: days },
        notes: current.notes.includes(note) ? current.notes : [...current.notes, note],
      });
      report.runs_expired.push(run.id);
    }
    if (!page.has_more || page.items.length === 0) break;
    offset += page.items.length;
  }
  return withAudit(report);

  async function withAudit(r: RetentionReport): Promise<RetentionReport> {
    if (policy.platformDays === undefined) return r;
    const until = new Date(now.getTime() - policy.platformDays * DAY_MS).toISOString();
    while (budget > 0) {
      const deleted = await stores.audit.deleteAuditRecords({ until }, { limit: Math.min(batch, budget) });
      r.audit_records_deleted += deleted;
      budget -= deleted;
      if (deleted === 0) break;
    }
    return r;
  }
}
