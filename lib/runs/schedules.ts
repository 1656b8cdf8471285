import { organizationOf, type Client, type ClientSchedule } from '../domain/index.js';
import { NcrontabSyntaxError, parseNcrontab } from '../ncrontab/index.js';
import { ConflictError, type Clock, type Stores } from '../ports/index.js';
import { scopedStores } from '../tenancy/index.js';
import { createRun, UnknownReferenceError } from './createRun.js';
import { scheduledRunIds } from './scheduledRunIds.js';

export { fireTimeStamp, scheduledRunIds } from './scheduledRunIds.js';

/** Something a schedule check could not start, and why. */
export interface ScheduleSkip {
  client_id: string;
  suite_id?: string;
  run_id?: string;
  reason: string;
}

export interface ScheduledRunsResult {
  /** runs created and started by this check */
  started: string[];
  /** scheduled runs found still `pending` (created, then a crash or a failed start) whose orchestration was started now */
  resumed: string[];
  /** an unreadable schedule, a suite or target that no longer exists, a failed start (retried while within the lookback) */
  skipped: ScheduleSkip[];
}

/**
 * Starts one run per suite of every client whose six-field NCRONTAB schedule (UTC) fired within the last
 * `lookbackMs`: ids from `scheduledRunIds`, so checking the same fire time again (a redelivered timer, a second
 * instance) creates nothing; a run found still `pending` is handed to `start` again. `start` must start the run's
 * orchestration unless it exists, and say whether it started one.
 */
export async function dueScheduledRuns(
  services: { stores: Stores; clock: Clock },
  options: { lookbackMs: number },
  start: (runId: string) => Promise<boolean>,
): Promise<ScheduledRunsResult> {
  const now = services.clock.now();
  const result: ScheduledRunsResult = { started: [], resumed: [], skipped: [] };
  for (let offset = 0; ; offset += 100) {
    const page = await services.stores.clients.list({ limit: 100, offset });
    for (const client of page.items) {
      for (const entry of scheduleEntries(client)) {
        const fired = lastFireTime(entry.cron, now);
        if (!fired) {
          result.skipped.push({ client_id: client.id, reason: scheduleProblem(entry.cron) ?? `schedule "${entry.cron}" never fired` });
          continue;
        }
        if (now.getTime() - fired.getTime() > options.lookbackMs) continue;
        for (const [index, suiteId] of [...new Set(client.suite_ids)].entries()) {
          await startScheduledRun(client, entry, suiteId, index, fired, services, start, result);
        }
      }
    }
    if (!page.has_more) break;
  }
  return result;
}

/**
 * A client's schedules: `schedule_cron` (the client's own config) first, then `schedules` in order, each with its
 * sample (null: every case). Entries firing at the same minute compute the same run ids, so the first one listed
 * starts the run and the others find it taken by this client and start nothing ("weekly full" listed before
 * "nightly sample" makes Sunday's run the full one).
 */
function scheduleEntries(client: Client): ClientSchedule[] {
  return [...(client.schedule_cron ? [{ cron: client.schedule_cron }] : []), ...(client.schedules ?? [])];
}

async function startScheduledRun(
  client: Client,
  entry: ClientSchedule,
  suiteId: string,
  index: number,
  fired: Date,
  services: { stores: Stores; clock: Clock },
  start: (runId: string) => Promise<boolean>,
  result: ScheduledRunsResult,
): Promise<void> {
  const skip = (reason: string, runId?: string) =>
    result.skipped.push({ client_id: client.id, suite_id: suiteId, ...(runId ? { run_id: runId } : {}), reason });
  for (const runId of scheduledRunIds(client.id, suiteId, index, fired)) {
    let resuming = false;
    try {
      const trigger_metadata = {
        schedule: entry.cron,
        fire_time: fired.toISOString(),
        ...(entry.label ? { schedule_label: entry.label } : {}),
      };
      const config = entry.sample === undefined ? undefined : { sample: entry.sample };
      await createRun(
        {
          client_id: client.id,
          suite_id: suiteId,
          triggered_by: 'schedule',
          trigger_metadata,
          run_id: runId,
          ...(config ? { config } : {}),
          ...(entry.priority ? { priority: entry.priority } : {}),
        },
        // the timer runs unscoped: the run is the client's organization's, on that organization's suite and target
        { ...services, stores: scopedStores(services.stores, organizationOf(client)) },
      );
    } catch (err) {
      if (err instanceof UnknownReferenceError) return void skip(err.message);
      if (!(err instanceof ConflictError)) throw err;
      const existing = await services.stores.runs.getRun(runId);
      if (!existing || existing.client_id !== client.id || existing.suite_id !== suiteId) continue; // another client's id
      if (existing.status !== 'pending') return;
      resuming = true;
    }
    try {
      const startedNow = await start(runId);
      if (!resuming) result.started.push(runId);
      else if (startedNow) result.resumed.push(runId);
    } catch (err) {
      skip(`could not start: ${(err as Error).message}; the run stays pending and is started again at the next check`, runId);
    }
    return;
  }
  skip(`every id for the fire time ${fired.toISOString()} is taken by another client's run`);
}

/** The most recent fire time at or before `now` (NCRONTAB, UTC), or undefined for an expression NCrontab refuses. */
export function lastFireTime(expression: string, now: Date): Date | undefined {
  try {
    return parseNcrontab(expression).lastAtOrBefore(now);
  } catch {
    return undefined;
  }
}

const SCHEDULE_FORMAT =
  'six-field NCRONTAB "{second} {minute} {hour} {day} {month} {day-of-week}" in UTC, e.g. "0 0 2 * * *" (02:00 daily) or "0 30 6 * * MON-FRI"';

/**
 * Why `expression` cannot be a client schedule, or undefined when it can: six fields that NCrontab (the parser
 * behind Azure Functions timers; lib/ncrontab/ncrontab.ts here, shared with the embedded host's timers) reads
 * and that fire at some time (day-of-month AND day-of-week must both match); the second is one number, since the
 * timer checks once a minute. The message names the field at fault and suggests the fix.
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
  let parsed;
  try {
    parsed = parseNcrontab(trimmed);
  } catch (err) {
    const field = err instanceof NcrontabSyntaxError ? err.field : undefined;
    const hint = field === 'day-of-week' && /(^|[^0-9])7([^0-9]|$)/.test(fields[5]!) ? '; Sunday is 0' : '';
    return `the ${field ?? 'schedule'} field "${err instanceof NcrontabSyntaxError ? err.text : trimmed}" is not valid (${(err as Error).message}${hint}); a client schedule is ${SCHEDULE_FORMAT}`;
  }
  if (!parsed.nextAfter(new Date(Date.UTC(2024, 0, 1)))) {
    return `"${trimmed}" never fires: no date matches its day, month and day-of-week together (NCRONTAB requires both day fields to match); a client schedule is ${SCHEDULE_FORMAT}`;
  }
  if (!/^\d+$/.test(fields[0]!))
    return `the second field "${fields[0]}" must be one number such as 0: schedules are checked once a minute, so a client runs at most once a minute`;
  return undefined;
}
