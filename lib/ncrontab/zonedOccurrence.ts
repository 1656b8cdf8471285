import type { NcrontabExpression } from './ncrontab.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Throws a RangeError for a time zone the runtime does not know. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Checks an IANA time zone name; throws a RangeError naming it when unknown. */
export function assertTimeZone(timeZone: string): void {
  formatterOf(timeZone);
}

/** The zone's UTC offset in ms at `instant` (wall clock minus UTC), to the second. */
export function zoneOffsetMs(timeZone: string, instant: number): number {
  if (timeZone === 'UTC') return 0;
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, Number(p.value)]),
  );
  const wall = Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return wall - Math.floor(instant / 1000) * 1000;
}

const HOUR = 3_600_000;

/** True when the wall time of `instant` also occurred earlier (the repeated hour after clocks fall back). */
function isRepeatedWallTime(timeZone: string, instant: number): boolean {
  const offset = zoneOffsetMs(timeZone, instant);
  const before = zoneOffsetMs(timeZone, instant - 3 * HOUR);
  if (before <= offset) return false;
  const earlier = instant - (before - offset);
  return zoneOffsetMs(timeZone, earlier) === before;
}

/** The first instant after `base` whose wall time the expression matches (before the point-in-time rule). */
function candidateAfter(expr: NcrontabExpression, timeZone: string, base: number): number | undefined {
  const offset = zoneOffsetMs(timeZone, base);
  const wall = expr.nextAfter(new Date(base + offset))?.getTime();
  if (wall === undefined) return undefined;
  const guess = wall - offset;
  const later = zoneOffsetMs(timeZone, guess);
  if (later === offset) return guess;
  // a transition lies between: read the wall time with the new offset; one skipped by a spring-forward fires
  // at the instant the old offset gives (as .NET reads an invalid local time), i.e. shifted by the gap
  const viaNew = wall - later;
  let best = viaNew > base && zoneOffsetMs(timeZone, viaNew) === later ? viaNew : guess;
  if (later < offset) {
    // clocks fell back: wall times before `wall` come round again under the new offset
    const again = expr.nextAfter(new Date(base + later))?.getTime();
    const instant = again === undefined ? undefined : again - later;
    if (instant !== undefined && instant > base && instant < best && zoneOffsetMs(timeZone, instant) === later) best = instant;
  }
  return best;
}

/**
 * The first occurrence strictly after `after` of an expression read in wall-clock time of `timeZone`, with the
 * Azure Functions timer's daylight-saving rules: a wall time skipped when clocks spring forward fires once, shifted
 * by the gap; in the hour repeated when clocks fall back, interval schedules (`isInterval`) keep firing while
 * point-in-time schedules fire only in the first pass. Undefined when the expression never fires.
 */
export function nextZonedOccurrence(expr: NcrontabExpression, timeZone: string, after: Date): Date | undefined {
  if (timeZone === 'UTC') return expr.nextAfter(after);
  let base = after.getTime();
  for (let attempt = 0; attempt < 10_000; attempt += 1) {
    const instant = candidateAfter(expr, timeZone, base);
    if (instant === undefined) return undefined;
    if (expr.isInterval || !isRepeatedWallTime(timeZone, instant)) return new Date(instant);
    base = instant;
  }
  return undefined;
}
