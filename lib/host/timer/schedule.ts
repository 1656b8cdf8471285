import { CronExpressionParser } from 'cron-parser';

/** A parsed timer schedule: six-field NCRONTAB or an Azure TimeSpan. */
export interface TimerSchedule {
  expression: string;
  kind: 'ncrontab' | 'timespan';
  /** The first occurrence strictly after `after`. */
  next(after: Date): Date;
  /** True when occurrences can come less than a minute apart (Azure's default for useMonitor is then false). */
  isSubMinute: boolean;
}

export interface ScheduleOptions {
  /** IANA zone the NCRONTAB fields are read in; default 'UTC' (Azure's default, WEBSITE_TIME_ZONE unset). */
  timeZone?: string;
}

/** Thrown for an expression the host cannot schedule (a configuration error). */
export class InvalidScheduleError extends Error {
  override name = 'InvalidScheduleError';
}

const TIMESPAN = /^(\d{1,2}):(\d{2}):(\d{2})$/;
const ANY = new Set(['*', '?']);
const MAX_FILTER_STEPS = 10_000;

/** `hh:mm:ss` (hh < 24), or `dd:hh:mm` when the first number is 24 or more, as Azure reads a TimeSpan schedule. */
function parseTimeSpan(expression: string): number | undefined {
  const match = TIMESPAN.exec(expression);
  if (!match) return undefined;
  const [a, b, c] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = a < 24 ? ((a * 60 + b) * 60 + c) * 1000 : (((a * 24 + b) * 60 + c) * 60) * 1000;
  if (b > 59 || c > 59 || (a >= 24 && b > 23)) throw new InvalidScheduleError(`TimeSpan schedule "${expression}" is out of range.`);
  if (ms <= 0) throw new InvalidScheduleError(`TimeSpan schedule "${expression}" must be longer than zero.`);
  return ms;
}

function timeSpanSchedule(expression: string, intervalMs: number): TimerSchedule {
  return { expression, kind: 'timespan', isSubMinute: intervalMs < 60_000, next: (after) => new Date(after.getTime() + intervalMs) };
}

function cronSchedule(expression: string, fields: string[], timeZone: string): TimerSchedule {
  const parse = (text: string, currentDate: Date) => CronExpressionParser.parse(text, { currentDate, tz: timeZone });
  let parsed;
  try {
    parsed = parse(expression, new Date(0));
  } catch (error) {
    throw new InvalidScheduleError(`Schedule "${expression}" is not a valid NCRONTAB expression: ${(error as Error).message}`);
  }
  // NCRONTAB requires BOTH day-of-month and day-of-week to match when both are restricted (cron-parser ORs them).
  const bothDays = !ANY.has(fields[3] as string) && !ANY.has(fields[5] as string);
  const weekdays = new Set<unknown>(parsed.fields.dayOfWeek.values.map((d) => (d === 7 ? 0 : d)));
  const iterable = bothDays ? [...fields.slice(0, 5), '*'].join(' ') : expression;
  const next = (after: Date): Date => {
    const iterator = parse(iterable, after);
    for (let step = 0; step < MAX_FILTER_STEPS; step += 1) {
      const candidate = iterator.next();
      if (!bothDays || weekdays.has(candidate.getDay())) return candidate.toDate();
    }
    throw new InvalidScheduleError(`Schedule "${expression}" has no occurrence after ${after.toISOString()}.`);
  };
  const probe = [next(new Date(Date.UTC(2024, 0, 1)))];
  for (let i = 0; i < 4; i += 1) probe.push(next(probe[probe.length - 1] as Date));
  const isSubMinute = probe.some((date, i) => i > 0 && date.getTime() - (probe[i - 1] as Date).getTime() < 60_000);
  return { expression, kind: 'ncrontab', isSubMinute, next };
}

/**
 * Parses a timer trigger schedule: six-field NCRONTAB `{second} {minute} {hour} {day} {month} {day-of-week}`
 * (five-field cron is rejected: Azure requires the seconds field) or a TimeSpan. Throws InvalidScheduleError.
 */
export function parseTimerSchedule(expression: string, options: ScheduleOptions = {}): TimerSchedule {
  const trimmed = expression.trim();
  const intervalMs = parseTimeSpan(trimmed);
  if (intervalMs !== undefined) return timeSpanSchedule(trimmed, intervalMs);
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 6) {
    const hint = fields.length === 5 ? ' Azure requires six fields: prepend the seconds, e.g. "0 ' + trimmed + '".' : '';
    throw new InvalidScheduleError(
      `Schedule "${expression}" has ${fields.length} field(s); expected six-field NCRONTAB "{second} {minute} {hour} {day} {month} {day-of-week}" or a TimeSpan "hh:mm:ss".${hint}`,
    );
  }
  return cronSchedule(trimmed, fields, options.timeZone ?? 'UTC');
}
