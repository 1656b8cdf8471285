import { NCRONTAB_FIELDS, NcrontabSyntaxError, parseNcrontabField, type NcrontabFieldName } from './ncrontabFields.js';

export { NCRONTAB_FIELDS, NcrontabSyntaxError, type NcrontabFieldName } from './ncrontabFields.js';

/**
 * A six-field NCRONTAB expression `{second} {minute} {hour} {day} {month} {day-of-week}`, matched as NCrontab
 * matches it: a time is an occurrence when EVERY field matches, day-of-month and day-of-week included (Unix
 * cron, and cron-parser, fire when either day field matches if both are restricted; NCrontab requires both).
 * Times are read in UTC fields; lib/host/timer/zonedOccurrence.ts maps them to another time zone.
 */
export interface NcrontabExpression {
  readonly expression: string;
  /** each field's sorted values (day-of-week 0-6, Sunday = 0) */
  readonly fields: Readonly<Record<NcrontabFieldName, readonly number[]>>;
  /** Azure's "interval" schedules: the second, minute or hour field spans a range (`*` or consecutive values) */
  readonly isInterval: boolean;
  /** True when the UTC fields of `time` (its whole second) match every field. */
  matches(time: Date): boolean;
  /** The first occurrence strictly after `time`; undefined when there is none (e.g. "0 0 0 30 2 *"). */
  nextAfter(time: Date): Date | undefined;
  /** The last occurrence at or before `time`; undefined when there is none. */
  lastAtOrBefore(time: Date): Date | undefined;
}

type Direction = 1 | -1;
type Sets = Readonly<Record<NcrontabFieldName, readonly number[]>> & { weekdays: ReadonlySet<number> };

/** The Gregorian calendar repeats every 400 years (146,097 days, a whole number of weeks): no match by then, none ever. */
const SEARCH_YEARS = 401;

/** First value >= from (direction 1) or last value <= from (direction -1) of a sorted list. */
function pick(values: readonly number[], from: number, dir: Direction): number | undefined {
  if (dir === 1) return values.find((v) => v >= from);
  return values.findLast((v) => v <= from);
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The first (or last) time of day matching the time fields, at or after (before) `bound` when given. */
function timeOfDay(sets: Sets, bound: readonly [number, number, number] | undefined, dir: Direction): [number, number, number] | undefined {
  const edge = dir === 1 ? 0 : 59;
  const [bh, bm, bs] = bound ?? [dir === 1 ? 0 : 23, edge, edge];
  for (let h = pick(sets.hour, bh, dir); h !== undefined; h = pick(sets.hour, h + dir, dir)) {
    for (let m = pick(sets.minute, h === bh ? bm : edge, dir); m !== undefined; m = pick(sets.minute, m + dir, dir)) {
      const s = pick(sets.second, h === bh && m === bm ? bs : edge, dir);
      if (s !== undefined) return [h, m, s];
    }
  }
  return undefined;
}

/** The first occurrence at or after `fromMs` (direction 1), or the last at or before it (-1), in UTC fields. */
function search(sets: Sets, fromMs: number, dir: Direction): number | undefined {
  const from = new Date(fromMs);
  const start = { y: from.getUTCFullYear(), mo: from.getUTCMonth() + 1, d: from.getUTCDate() };
  const bound = [from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds()] as const;
  let [y, mo, d] = [start.y, start.mo, start.d];
  while (Math.abs(y - start.y) < SEARCH_YEARS) {
    const month = pick(sets.month, mo, dir);
    if (month === undefined || month !== mo) {
      if (month === undefined) [y, mo] = [y + dir, dir === 1 ? 1 : 12];
      else mo = month;
      d = dir === 1 ? 1 : 31;
      continue;
    }
    const last = daysIn(y, mo);
    for (let day = pick(sets.day, Math.min(d, last), dir); day !== undefined && day <= last; day = pick(sets.day, day + dir, dir)) {
      if (!sets.weekdays.has(new Date(Date.UTC(y, mo - 1, day)).getUTCDay())) continue;
      const isStart = y === start.y && mo === start.mo && day === start.d;
      const time = timeOfDay(sets, isStart ? bound : undefined, dir);
      if (time) return Date.UTC(y, mo - 1, day, ...time);
    }
    [y, mo] = mo + dir > 12 ? [y + 1, 1] : mo + dir < 1 ? [y - 1, 12] : [y, mo + dir];
    d = dir === 1 ? 1 : 31;
  }
  return undefined;
}

/** A field Azure counts as an interval: all values (`*`) or a run of consecutive ones (NCrontab prints it `a-b`). */
const spansRange = (values: readonly number[], size: number) =>
  values.length === size || values.some((v, i) => i > 0 && values[i - 1] === v - 1);

/** Parses a six-field NCRONTAB expression; throws NcrontabSyntaxError naming the field at fault. */
export function parseNcrontab(expression: string): NcrontabExpression {
  const texts = expression
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
  if (texts.length !== NCRONTAB_FIELDS.length) {
    throw new NcrontabSyntaxError(
      undefined,
      expression,
      `"${expression.trim()}" has ${texts.length} field(s); NCRONTAB has six: {second} {minute} {hour} {day} {month} {day-of-week}`,
    );
  }
  const fields = Object.fromEntries(NCRONTAB_FIELDS.map((name, i) => [name, parseNcrontabField(name, texts[i] as string)])) as Record<
    NcrontabFieldName,
    number[]
  >;
  const sets: Sets = { ...fields, weekdays: new Set(fields['day-of-week']) };
  const floorSecond = (time: Date) => Math.floor(time.getTime() / 1000) * 1000;
  const toDate = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms));
  return {
    expression: texts.join(' '),
    fields,
    isInterval: spansRange(fields.second, 60) || spansRange(fields.minute, 60) || spansRange(fields.hour, 24),
    matches: (time) =>
      fields.second.includes(time.getUTCSeconds()) &&
      fields.minute.includes(time.getUTCMinutes()) &&
      fields.hour.includes(time.getUTCHours()) &&
      fields.day.includes(time.getUTCDate()) &&
      fields.month.includes(time.getUTCMonth() + 1) &&
      sets.weekdays.has(time.getUTCDay()),
    nextAfter: (time) => toDate(search(sets, floorSecond(time) + 1000, 1)),
    lastAtOrBefore: (time) => toDate(search(sets, floorSecond(time), -1)),
  };
}
