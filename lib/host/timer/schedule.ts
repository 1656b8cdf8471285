import { assertTimeZone, NcrontabSyntaxError, nextZonedOccurrence, parseNcrontab } from '../../ncrontab/index.js';

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
/** `hh:mm:ss` (hh < 24), or `dd:hh:mm` when the first number is 24 or more, as Azure reads a TimeSpan schedule. */
function parseTimeSpan(expression: string): number | undefined {
  const match = TIMESPAN.exec(expression);
  if (!match) return undefined;
  const [a, b, c] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = a < 24 ? ((a * 60 + b) * 60 + c) * 1000 : ((a * 24 + b) * 60 + c) * 60 * 1000;
  if (b > 59 || c > 59 || (a >= 24 && b > 23)) throw new InvalidScheduleError(`TimeSpan schedule "${expression}" is out of range.`);
  if (ms <= 0) throw new InvalidScheduleError(`TimeSpan schedule "${expression}" must be longer than zero.`);
  return ms;
}

function timeSpanSchedule(expression: string, intervalMs: number): TimerSchedule {
  return { expression, kind: 'timespan', isSubMinute: intervalMs < 60_000, next: (after) => new Date(after.getTime() + intervalMs) };
}

function cronSchedule(expression: string, timeZone: string): TimerSchedule {
  let parsed;
  try {
    assertTimeZone(timeZone);
    parsed = parseNcrontab(expression);
  } catch (error) {
    const where = error instanceof NcrontabSyntaxError && error.field ? ` the ${error.field} field "${error.text}": ` : ' ';
    throw new InvalidScheduleError(`Schedule "${expression}" is not a valid NCRONTAB expression:${where}${(error as Error).message}`);
  }
  const expr = parsed;
  if (!expr.nextAfter(new Date(Date.UTC(2024, 0, 1)))) {
    throw new InvalidScheduleError(`Schedule "${expression}" has no occurrence: no date matches its day, month and day-of-week.`);
  }
  const next = (after: Date): Date => {
    const occurrence = nextZonedOccurrence(expr, timeZone, after);
    if (!occurrence) throw new InvalidScheduleError(`Schedule "${expression}" has no occurrence after ${after.toISOString()}.`);
    return occurrence;
  };
  // occurrences less than a minute apart exactly when the second field has more than one value
  return { expression, kind: 'ncrontab', isSubMinute: expr.fields.second.length > 1, next };
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
  return cronSchedule(trimmed, options.timeZone ?? 'UTC');
}
