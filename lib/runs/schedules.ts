import { CronExpressionParser } from 'cron-parser';
import type { Services } from '../app/services.js';
import { createRun } from './createRun.js';
import { ConflictError } from '../ports/index.js';

/**
 * Starts runs for clients whose six-field NCRONTAB schedule (UTC) fired within the last `lookbackMs`. The run id
 * `sched-<client>-<fire time>` makes it idempotent: a second check of the same fire time finds the run and
 * starts nothing. Returns the ids of runs started now.
 */
export async function dueScheduledRuns(services: Services, options: { lookbackMs: number }, start: (runId: string) => Promise<void>): Promise<string[]> {
  const now = services.clock.now();
  const started: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await services.stores.clients.list({ limit: 100, offset });
    for (const client of page.items) {
      if (!client.schedule_cron) continue;
      const fired = lastFireTime(client.schedule_cron, now);
      if (!fired || now.getTime() - fired.getTime() > options.lookbackMs) continue;
      const runId = `sched-${client.id}-${fired.toISOString().replace(/[^0-9TZ]/g, '')}`.slice(0, 100);
      try {
        await createRun({ client_id: client.id, triggered_by: 'schedule', run_id: runId }, services);
      } catch (err) {
        if (err instanceof ConflictError) continue;
        throw err;
      }
      await start(runId);
      started.push(runId);
    }
    if (!page.has_more) break;
  }
  return started;
}

/** The most recent fire time at or before `now`, or undefined for an invalid expression. */
export function lastFireTime(expression: string, now: Date): Date | undefined {
  try {
    const parsed = CronExpressionParser.parse(expression, { currentDate: new Date(now.getTime() + 1), tz: 'UTC' });
    return parsed.prev().toDate();
  } catch {
    return undefined;
  }
}
