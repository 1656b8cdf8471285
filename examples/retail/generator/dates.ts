/** Calendar helpers over ISO dates (`YYYY-MM-DD`, UTC). The sample's "today" is fixed so output is reproducible. */

/** The day the gold set was written and the API responses recorded. */
export const TODAY = '2026-10-14';
/** When the gold's expected data was captured, and (two and a half hours later) the cassette recorded. */
export const RECORDED_AT = '2026-10-14T09:30:00Z';
export const AUTHORED_AT = '2026-10-14T07:00:00Z';

const DAY_MS = 86_400_000;
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

export function toDate(iso: string): Date {
  return new Date(`${iso.slice(0, 10)}T00:00:00.000Z`);
}

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(iso: string, days: number): string {
  return isoDate(new Date(toDate(iso).getTime() + days * DAY_MS));
}

/** whole days from a to b (b - a) */
export function daysBetween(a: string, b: string): number {
  return Math.round((toDate(b).getTime() - toDate(a).getTime()) / DAY_MS);
}

/** every date from start to end, inclusive */
export function eachDay(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) out.push(d);
  return out;
}

export function monthStart(year: number, month1: number): string {
  return `${year}-${String(month1).padStart(2, '0')}-01`;
}

export function monthEnd(year: number, month1: number): string {
  return addDays(month1 === 12 ? monthStart(year + 1, 1) : monthStart(year, month1 + 1), -1);
}

/** "September 3, 2026" */
export function longDate(iso: string): string {
  const d = toDate(iso);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** "Sep 3" */
export function shortDate(iso: string): string {
  const d = toDate(iso);
  return `${MONTHS[d.getUTCMonth()]!.slice(0, 3)} ${d.getUTCDate()}`;
}

/** "09/03/2026": the US format models sometimes send where the schema wants ISO dates */
export function usDate(iso: string): string {
  return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
}

/** Monday of the ISO week holding `iso` */
export function weekStart(iso: string): string {
  const dow = (toDate(iso).getUTCDay() + 6) % 7;
  return addDays(iso, -dow);
}

/** an instant on a date: `2026-09-03T14:05:00Z` */
export function instant(iso: string, minuteOfDay: number): string {
  const h = String(Math.floor(minuteOfDay / 60) % 24).padStart(2, '0');
  const m = String(minuteOfDay % 60).padStart(2, '0');
  return `${iso}T${h}:${m}:00Z`;
}
