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

const SCHEDULE_FIELDS = ['second', 'minute', 'hour', 'day', 'month', 'day-of-week'] as const;
const SCHEDULE_FORMAT = 'six-field NCRONTAB "{second} {minute} {hour} {day} {month} {day-of-week}" in UTC, e.g. "0 0 2 * * *" (02:00 daily) or "0 30 6 * * MON-FRI"';

/**
 * Why `expression` cannot be a client schedule, or undefined when it can: six fields that the parser the schedules
 * timer uses (cron-parser, UTC) reads and that fire at some time; the second is one number, since the timer checks
 * once a minute. The message names the field at fault and suggests the fix.
 */
export function scheduleProblem(expression: string): string | undefined {
  const trimmed = expression.trim();
  const fields = trimmed === '' ? [] : trimmed.split(/\s+/);
  if (fields.length !== 6) {
    const hint =
      fields.length === 5
        ? ` Five fields is Unix cron: prepend the seconds, e.g. "0 ${trimmed}".`
        : /^\d{1,2}:\d{2}:\d{2}$/.test(trimmed)
          ? ' TimeSpan intervals are not client schedules.'
          : '';
    return `"${trimmed}" has ${fields.length} field(s); a client schedule is ${SCHEDULE_FORMAT}.${hint}`;
  }
  const parses = (text: string): string | undefined => {
    try {
      CronExpressionParser.parse(text, { tz: 'UTC', currentDate: new Date(Date.UTC(2024, 0, 1)) }).next();
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  };
  for (const [i, field] of fields.entries()) {
    const alone = SCHEDULE_FIELDS.map((_, j) => (j === i ? field : j === 0 ? '0' : '*')).join(' ');
    const problem = parses(alone);
    if (problem) return `the ${SCHEDULE_FIELDS[i]} field "${field}" is not valid (${problem}); a client schedule is ${SCHEDULE_FORMAT}`;
  }
  const problem = parses(trimmed);
  if (problem) return `"${trimmed}" never fires or cannot be read (${problem}); a client schedule is ${SCHEDULE_FORMAT}`;
  if (!/^\d+$/.test(fields[0]!)) return `the second field "${fields[0]}" must be one number such as 0: schedules are checked once a minute, so a client runs at most once a minute`;
  return undefined;
}
