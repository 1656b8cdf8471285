import type { Run, RunStatus } from '../domain/index.js';
import type { Services } from '../ports/index.js';
import { runHealth } from './runHealth.js';

/** Minutes without a new scorecard (and nothing scheduled) after which a running run is `stalled` (default). */
export const DEFAULT_STALL_AFTER_MINUTES = 10;

export interface WatchdogResult {
  /** runs marked stalled now, with the reason */
  stalled: Array<{ run_id: string; reason: string }>;
  /** stalled runs that moved again (after a replay) and are running once more */
  resumed: string[];
}

/**
 * Runs never hang silently. For every open run: `stalled` (with the reason in `error`) when it has dead letters
 * and nothing left to process, or when it made no progress (no new scorecard) for `stallAfterMs` with nothing
 * scheduled; a stalled run that has messages to process again and no dead letters (after `evalp dlq replay`)
 * goes back to `running`. A stalled run can also be cancelled. Idempotent (status updates are conditional).
 * Needs per-run queue figures (services.runQueues); without them it changes nothing.
 */
export async function checkStalledRuns(
  services: Pick<Services, 'stores' | 'runQueues' | 'circuitOf' | 'clock'>,
  options: { stallAfterMs: number },
): Promise<WatchdogResult> {
  const result: WatchdogResult = { stalled: [], resumed: [] };
  if (!services.runQueues) return result;
  const now = services.clock.now();
  for (const status of ['running', 'stalled'] as const satisfies readonly RunStatus[]) {
    for (let offset = 0; ; offset += 200) {
      const page = await services.stores.runs.listRuns({ status }, { limit: 200, offset });
      for (const run of page.items) {
        const verdict = await inspect(services, run, now, options.stallAfterMs);
        if (status === 'running' && verdict.stalled) {
          const updated = await services.stores.runs.updateRun(
            run.id,
            { status: 'stalled', error: verdict.stalled },
            { from: ['running'] },
          );
          if (updated) result.stalled.push({ run_id: run.id, reason: verdict.stalled });
        } else if (status === 'stalled' && verdict.moving) {
          const updated = await services.stores.runs.updateRun(run.id, { status: 'running', error: null }, { from: ['stalled'] });
          if (updated) result.resumed.push(run.id);
        }
      }
      if (!page.has_more) break;
    }
  }
  return result;
}

async function inspect(
  services: Pick<Services, 'stores' | 'runQueues' | 'circuitOf'>,
  run: Run,
  now: Date,
  stallAfterMs: number,
): Promise<{ stalled?: string; moving: boolean }> {
  const health = await runHealth(services, run, { fresh: true });
  if (!health) return { moving: false };
  const pending = health.waiting + health.deferred;
  if (health.dead_lettered > 0 && pending === 0) {
    return {
      stalled: `stalled: ${health.dead_lettered} message(s) of this run are dead-lettered (last: ${health.last_error}); fix the cause and replay them (evalp dlq replay), or cancel the run`,
      moving: false,
    };
  }
  const stats = await services.stores.runStats.getRunStats(run.id);
  const lastProgress = Date.parse(stats?.updated_at ?? run.started_at ?? run.created_at);
  const idleMs = now.getTime() - lastProgress;
  if (health.deferred === 0 && idleMs > stallAfterMs) {
    return {
      stalled: `stalled: no progress for ${Math.round(idleMs / 60_000)} minute(s) (${stats?.completed ?? 0} of ${run.total_cases} cases in, ${health.waiting} message(s) waiting); replay its dead letters or cancel the run`,
      moving: false,
    };
  }
  return { moving: health.dead_lettered === 0 && pending > 0 };
}
